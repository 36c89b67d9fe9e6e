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

/** Who a lock file names, and which file it is (its inode): a file made later under the same name is another lock. */
interface Holder {
  pid: number
  inode: number
}

/**
 * The lock file's holder, read from one open file; undefined when the file is gone (released since we looked). Any
 * other failure to read it (another user's lock that this one may not read) is thrown: retrying could never succeed.
 */
function readHolder(file: string): Holder | undefined {
  let fd: number
  try {
    fd = fs.openSync(file, 'r')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  try {
    const inode = fs.fstatSync(fd).ino
    const text = fs.readFileSync(fd, 'utf8')
    const pid = Number(text)
    return { pid: Number.isInteger(pid) && pid > 0 && String(pid) === text.trim() ? pid : 0, inode }
  } finally {
    fs.closeSync(fd)
  }
}

/** The pid of the lock's holder while that process lives; undefined when nobody holds it or its holder is gone. */
export function liveHolder(file: string): number | undefined {
  const holder = readHolder(file)
  return holder && isLive(holder.pid) ? holder.pid : undefined
}

/** Whether the process runs: not gone, and not exited and waiting to be reaped. */
export function isLive(pid: number): boolean {
  if (pid <= 0 || exitedUnreaped(pid)) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
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
 * Creates the lock file holding our pid and returns its inode, or undefined if the lock exists. The pid is written to
 * a private file that is then hard-linked into place, so the lock file never exists empty: a waiter reading it
 * between an exclusive create and the write would take the empty file for a stale lock, and both would hold it.
 */
function tryCreate(file: string): number | undefined {
  const temp = `${file}.${process.pid}.tmp`
  fs.writeFileSync(temp, String(process.pid))
  try {
    const inode = fs.statSync(temp).ino
    fs.linkSync(temp, file)
    return inode
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined
    throw error
  } finally {
    fs.rmSync(temp, { force: true })
  }
}

/** Removes the lock file if it is still the file `inode` names: never a lock someone took since. */
function removeIfSame(file: string, inode: number): void {
  // Renamed aside first, then judged: a check followed by a plain unlink could remove a lock made in between.
  const aside = `${file}.${process.pid}.stale`
  try {
    fs.renameSync(file, aside)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return // gone already: someone else released or removed it
    // Another user's lock in a sticky folder: trying again would spin for ever.
    throw new Error(`the lock file ${file} cannot be removed (${(error as Error).message}); its process has ended: remove the file by hand`)
  }
  if (fs.statSync(aside).ino !== inode) {
    // A live lock taken after our look: put it back. (If yet another lock was made in the instant it was aside, the
    // link fails and that holder keeps it; the pool's claims and the host's requests guard against a second holder.)
    try {
      fs.linkSync(aside, file)
    } catch {
      // see above
    }
  }
  fs.rmSync(aside, { force: true })
}

/**
 * One attempt at the lock, taking over a stale one: the release function, or the pid of the live owner. Release
 * removes the lock only while it is still ours.
 */
export function tryLock(file: string): (() => void) | number {
  for (;;) {
    const inode = tryCreate(file)
    if (inode !== undefined) return () => removeIfSame(file, inode)
    const holder = readHolder(file)
    // Released between our two looks: try again, and remove nothing (a lock made since is someone else's).
    if (holder === undefined) continue
    if (isLive(holder.pid)) return holder.pid
    removeIfSame(file, holder.inode)
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
