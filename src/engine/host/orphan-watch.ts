// A device host whose worker is gone must not outlive it. An idle host hears the IPC channel close and exits (tearing
// its context down under the GPU lock, host.ts), but one blocked in a kernel that never ends, or in a long case,
// hears nothing: its JavaScript thread is inside a CUDA call. A thread of its own watches the parent process and
// kills the host once it has been orphaned for `graceMs`, whatever the main thread is doing.
import { Worker } from 'node:worker_threads'

/** Plain JavaScript, run as an eval'd worker thread (no loader needed). */
const WATCHER = `
const { workerData } = require('node:worker_threads')
let orphanedAt
setInterval(() => {
  if (process.ppid === workerData.parent) return
  orphanedAt ??= Date.now()
  if (Date.now() - orphanedAt >= workerData.graceMs) process.kill(process.pid, 'SIGKILL')
}, 250)
`

/** Starts the watch on the current parent; it never keeps the host alive. */
export function dieWhenOrphaned(graceMs: number): void {
  new Worker(WATCHER, { eval: true, workerData: { parent: process.ppid, graceMs } }).unref()
}
