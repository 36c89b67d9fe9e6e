// Exclusive lock files shared by processes on one host: created with O_EXCL semantics, holding the owner's pid. A
// lock whose owner is gone is stale and taken over. The GPU lock (gpu-lock.ts) and the compile locks
// (build-locks.ts) are both built on it.
import fs from 'node:fs'

const LOCK_POLL_MS = 100
/**
 * The device host's waits are for the GPU, handed from process to process between cases: a tenth of a second per
 * handoff would leave the GPU idle for seconds over a suite, while a try every 10 ms costs nothing measurable.
 */
const SYNC_LOCK_POLL_MS = 10

/** The pid in a lock file while that process runs; undefined for a lock that is gone, unreadable or stale. */
function liveOwner(file: string): number | undefined {
  let pid: number
  try {
    pid = Number(fs.readFileSync(file, 'utf8'))
  } catch {
    return undefined // vanished between our attempt and this read: not held
  }
  if (!Number.isInteger(pid) || pid <= 0 || exitedUnreaped(pid)) return undefined
  try {
    process.kill(pid, 0)
    return pid
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined
  }
}

/**
 * Whether the process has exited but its parent has not reaped it yet (a zombie, state Z or X in Linux's
 * /proc/<pid>/stat). It still answers kill(pid, 0), yet holds nothing: its files, memory and GPU context were
 * released before it became one. An orphaned device host is reaped by whatever runs as PID 1, which in a container
 * may take seconds or never happen.
 */
function exitedUnreaped(pid: number): boolean {
  let stat: string
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return false // no procfs (not Linux), or the process is gone: kill() says which
  }
  // "pid (command) state …": the command may contain spaces and parentheses, so the state follows the last ')'.
  const state = stat.charAt(stat.lastIndexOf(')') + 2)
  return state === 'Z' || state === 'X'
}

/**
 * Creates the lock file holding our pid, or returns false if it exists. The pid is written to a private file
 * that is then hard-linked into place, so the lock file never exists empty: a waiter reading it between an
 * exclusive create and the write would take the empty file for a stale lock, and both would hold it.
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

/** One attempt at the lock, taking over a stale one: the release function, or the pid of the live owner. */
export function tryLock(file: string): (() => void) | number {
  for (;;) {
    if (tryCreate(file)) return () => fs.rmSync(file, { force: true })
    const owner = liveOwner(file)
    if (owner !== undefined) return owner
    fs.rmSync(file, { force: true })
  }
}

/** What one attempt at a lock (or at one of several) gives: the release function, or whom it waits for. */
export type Attempt = (() => void) | number

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

/**
 * Repeats the attempt, pausing between tries, until it gives a release function; onWait hears the owner once the
 * wait has lasted `noticeMs` (at the first failed try when 0).
 */
function* attempts(attempt: () => Attempt, onWait: (owner: number) => void, noticeMs: number): Generator<void, () => void> {
  const start = performance.now()
  for (let told = false; ; ) {
    const result = attempt()
    if (typeof result === 'function') return result
    if (!told && performance.now() - start >= noticeMs) {
      onWait(result)
      told = true
    }
    yield
  }
}

/** Blocks until the attempt succeeds: for the device host, which works synchronously between messages. */
export function waitForLockSync(attempt: () => Attempt, onWait: (owner: number) => void = () => {}, noticeMs = 0): () => void {
  const tries = attempts(attempt, onWait, noticeMs)
  for (let step = tries.next(); ; step = tries.next()) {
    if (step.done) return step.value
    sleepSync(SYNC_LOCK_POLL_MS)
  }
}

/** waitForLockSync without blocking the event loop: for a Vitest worker running many compiles at once. */
export async function waitForLock(attempt: () => Attempt, onWait: (owner: number) => void = () => {}, noticeMs = 0): Promise<() => void> {
  const tries = attempts(attempt, onWait, noticeMs)
  for (let step = tries.next(); ; step = tries.next()) {
    if (step.done) return step.value
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS))
  }
}
