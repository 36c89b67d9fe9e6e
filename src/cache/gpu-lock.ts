// One timing process per GPU on this host, across Vitest workers and separate `vitest bench` runs: an exclusive
// lock file per GPU (named by PCI bus id) created with O_EXCL, holding the owner's pid. A lock whose owner is
// gone is stale and taken over.
//
// Creating a CUDA context is GPU work that must not fall into anyone's timed window, but two processes creating
// theirs at once disturb nobody's measurement: a set-up is shared. Each process setting up keeps a marker file (its
// pid) in the lock's set-up folder while no exclusive holder lives; an exclusive holder takes the lock file first
// and then waits until no live marker is left. Marker before look on one side, lock before look on the other: at
// least one of the two sees the other, so a set-up never overlaps an exclusive hold.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { isLive, liveHolder, tryLock, waitForLockSync, type Attempt } from './lock-file.js'

/** A lock file of one GPU, of one kind, named by its PCI bus id: every process on the host finds the same file. */
function perGpuFile(kind: string, pciBusId: string, dir: string): string {
  return path.join(dir, `vitest-kernel-bench-${kind}-${pciBusId.replace(/[^\w.-]/g, '_')}.lock`)
}

/** The lock a device host holds while it works on the GPU. */
export function lockPath(pciBusId: string, dir = os.tmpdir()): string {
  return perGpuFile('gpu', pciBusId, dir)
}

/** The claim a worker holds on the GPU for one case (src/engine/worker/gpu-pool.ts). */
export function claimPath(pciBusId: string, dir = os.tmpdir()): string {
  return perGpuFile('claim', pciBusId, dir)
}

/** The folder of the markers of the processes setting up a context under the lock `file`. */
export function setupFolder(file: string): string {
  return `${file}.setup`
}

/** The file whose time says when a process last let go of the GPU's lock: the GPU worked until then. */
function busyStamp(file: string): string {
  return `${file}.busy`
}

/**
 * A GPU that worked this recently is still at its working clocks: a host skips the global warmup (protocol step 2)
 * when any process let go of the GPU's lock since, as it does when it replaces a host of its own worker.
 */
export const GPU_STILL_WARM_MS = 5000

/** Milliseconds since a process last let go of the lock `file` (Infinity when none ever did). */
export function msSinceGpuBusy(file: string): number {
  try {
    return Date.now() - fs.statSync(busyStamp(file)).mtimeMs
  } catch {
    return Infinity
  }
}

/**
 * Waits of other workers of the same run (a case on the GPU while this host starts) are short and routine; a wait
 * this long is worth a line: most likely another run holds the GPU.
 */
export const GPU_WAIT_NOTICE_MS = 3000

/**
 * Blocks until this process holds the lock and no other process is setting up a context, calling onWait once per
 * wait that lasts `noticeMs`. Returns a release function, which also stamps the time the GPU's work ended.
 * Synchronous on purpose: the device host does its GPU work synchronously between messages.
 */
export function acquireGpuLock(file: string, onWait: (ownerPid: string) => void = () => {}, noticeMs = GPU_WAIT_NOTICE_MS): () => void {
  const release = waitForLockSync(() => tryLock(file), (owner) => onWait(String(owner)), noticeMs)
  try {
    waitForLockSync(() => setupsDone(file), (owner) => onWait(String(owner)), noticeMs)
  } catch (error) {
    release()
    throw error
  }
  return () => {
    stampBusy(file)
    release()
  }
}

/** Stamps the end of the GPU's work; best effort: another user's stamp file may not be ours to write. */
function stampBusy(file: string): void {
  try {
    fs.writeFileSync(busyStamp(file), '')
  } catch {
    // The next host then runs the global warmup: slower, not wrong.
  }
}

/**
 * Blocks until this process may set up a context on the GPU: no live process holds the exclusive lock. Other
 * set-ups may run meanwhile. Returns a release function.
 */
export function acquireGpuSetup(file: string, onWait: (ownerPid: string) => void = () => {}, noticeMs = GPU_WAIT_NOTICE_MS): () => void {
  return waitForLockSync(() => trySetup(file), (owner) => onWait(String(owner)), noticeMs)
}

/** One attempt at a set-up: the release function, or the pid of the exclusive lock's live holder. */
function trySetup(file: string): Attempt {
  const folder = setupFolder(file)
  // Shared by every user's runs, as the temporary folder is: anyone may add a marker, only its owner remove it.
  if (fs.mkdirSync(folder, { recursive: true }) !== undefined) fs.chmodSync(folder, 0o1777)
  const marker = path.join(folder, String(process.pid))
  fs.writeFileSync(marker, '')
  const holder = liveHolder(file)
  if (holder === undefined) return () => fs.rmSync(marker, { force: true })
  fs.rmSync(marker, { force: true })
  return holder
}

/**
 * Nothing (a release with nothing to release) once no other live process has a set-up marker, else one such pid.
 * The markers of processes that are gone are removed.
 */
function setupsDone(file: string): Attempt {
  const folder = setupFolder(file)
  let names: string[]
  try {
    names = fs.readdirSync(folder)
  } catch {
    return () => {} // no set-up ever ran here
  }
  for (const name of names) {
    const pid = Number(name)
    if (pid === process.pid) continue
    if (isLive(pid)) return pid
    try {
      fs.rmSync(path.join(folder, name), { force: true })
    } catch {
      // Another user's marker: it stays, and is passed again next time.
    }
  }
  return () => {}
}
