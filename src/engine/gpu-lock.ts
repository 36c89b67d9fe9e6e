// One timing process per GPU on this host, across Vitest workers and separate `vitest bench` runs: an exclusive
// lock file per GPU (named by PCI bus id) created with O_EXCL, holding the owner's pid. A lock whose owner is
// gone is stale and taken over.
import os from 'node:os'
import path from 'node:path'
import { tryLock, waitForLockSync } from '../lock-file.js'

export function lockPath(pciBusId: string, dir = os.tmpdir()): string {
  return path.join(dir, `vitest-kernel-bench-gpu-${pciBusId.replace(/[^\w.-]/g, '_')}.lock`)
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
