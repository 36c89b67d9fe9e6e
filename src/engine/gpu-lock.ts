// One timing process per GPU on this host, across Vitest workers and separate `vitest bench` runs: an exclusive
// lock file per GPU (named by PCI bus id) created with O_EXCL, holding the owner's pid. A lock whose owner is
// gone is stale and taken over.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const POLL_MS = 100

export function lockPath(pciBusId: string, dir = os.tmpdir()): string {
  return path.join(dir, `vitest-kernel-bench-gpu-${pciBusId.replace(/[^\w.-]/g, '_')}.lock`)
}

/** The pid in a lock file while that process runs; undefined for a lock that is gone, unreadable or stale. */
function liveOwner(file: string): number | undefined {
  let pid: number
  try {
    pid = Number(fs.readFileSync(file, 'utf8'))
  } catch {
    return undefined // vanished between our attempt and this read: not held
  }
  if (!Number.isInteger(pid) || pid <= 0) return undefined
  try {
    process.kill(pid, 0)
    return pid
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined
  }
}

/**
 * Creates the lock file holding our pid, or returns false if it exists. The pid is written to a private file
 * that is then hard-linked into place, so the lock file never exists empty: a waiter reading it between an
 * exclusive create and the write would take the empty file for a stale lock, and both would hold the GPU.
 */
function tryCreate(file: string): boolean {
  const temp = `${file}.${process.pid}.tmp`
  fs.writeFileSync(temp, String(process.pid))
  try {
    fs.linkSync(temp, file)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  } finally {
    fs.rmSync(temp, { force: true })
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

/**
 * Blocks until this process holds the lock, calling onWait once if it has to wait. Returns a release function.
 * Synchronous on purpose: the device host does its GPU work synchronously between messages.
 */
export function acquireGpuLock(file: string, onWait: (ownerPid: string) => void = () => {}): () => void {
  let warned = false
  for (;;) {
    if (tryCreate(file)) return () => fs.rmSync(file, { force: true })
    const owner = liveOwner(file)
    if (owner === undefined) {
      fs.rmSync(file, { force: true })
      continue
    }
    if (!warned) {
      warned = true
      onWait(String(owner))
    }
    sleepSync(POLL_MS)
  }
}
