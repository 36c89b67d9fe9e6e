// One timing process per GPU on this host, across Vitest workers and separate `vitest bench` runs: an exclusive
// lock file per GPU (named by PCI bus id) created with O_EXCL, holding the owner's pid. A lock whose owner is
// gone is stale and taken over.
import os from 'node:os'
import path from 'node:path'
import { tryLock, waitForLockSync } from './lock-file.js'

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

/**
 * Waits of other workers of the same run (a case on the GPU while this host starts) are short and routine; a wait
 * this long is worth a line: most likely another run holds the GPU.
 */
export const GPU_WAIT_NOTICE_MS = 3000

/**
 * Blocks until this process holds the lock, calling onWait once if the wait lasts `noticeMs`. Returns a release
 * function. Synchronous on purpose: the device host does its GPU work synchronously between messages.
 */
export function acquireGpuLock(file: string, onWait: (ownerPid: string) => void = () => {}, noticeMs = GPU_WAIT_NOTICE_MS): () => void {
  return waitForLockSync(() => tryLock(file), (owner) => onWait(String(owner)), noticeMs)
}
