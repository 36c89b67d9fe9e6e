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

function ownerAlive(file: string): boolean {
  let pid: number
  try {
    pid = Number(fs.readFileSync(file, 'utf8'))
  } catch {
    return false // vanished between our attempt and this read: not held
  }
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
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
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' })
      return () => fs.rmSync(file, { force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    if (!ownerAlive(file)) {
      fs.rmSync(file, { force: true })
      continue
    }
    if (!warned) {
      warned = true
      onWait(fs.readFileSync(file, 'utf8'))
    }
    sleepSync(POLL_MS)
  }
}
