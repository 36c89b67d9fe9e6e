// Processes a solution starts. Their GPU work runs in CUDA contexts of their own, which this process's CUPTI and stream
// audit never see: a solution could hand its kernels to a helper process and be timed on an empty call in `cupti`
// timing, or leave one running to slow whatever is timed after it (in a paired A/B case, the other side). The device
// host is a child subreaper (src/native/process-tree.ts), so every process started below it stays its descendant, and a
// grandchild whose parent exited becomes its child; the harness itself starts no process that outlives a call (its
// compiler runs finish before they return) but one: the esbuild service through which tsx loads TypeScript (the host's
// own modules from this repository's sources, a TypeScript solution anywhere), a statically linked program that can load
// no CUDA library. So any other child of the host after a request is the solution's doing: the case is refused, and the
// host kills every process below it before it exits. A helper that a call starts and waits for before it returns leaves
// no child, but what it used is added to the host's reaped children's usage (getrusage), which the harness's own
// compiler runs are the only other reason to grow: a growth the harness did not make refuses the case too.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { reapedChildrenUsage } from '../../native/process-tree.js'
import { describePid } from '../../shared/process-command.js'

/** A solution started processes; the host kills them and exits after reporting it. */
export class SpawnedProcessError extends Error {
  override name = 'SpawnedProcess'
}

/** The direct children of process `pid` (of every thread), zombies included; undefined where Linux does not list them. */
export function childProcesses(pid: number | 'self' = 'self'): number[] | undefined {
  let tasks: string[]
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`)
  } catch {
    return undefined
  }
  const children = new Set<number>()
  for (const task of tasks) {
    let listed: string
    try {
      listed = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
    } catch (error) {
      // A thread that ended since the listing has no file; a kernel without CONFIG_PROC_CHILDREN has none at all.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && fs.existsSync(`/proc/${pid}/task/${task}`)) return undefined
      continue
    }
    for (const child of listed.split(' ')) if (child.trim() !== '') children.add(Number(child))
  }
  return [...children]
}

/** The esbuild program tsx runs as its service, where tsx is installed (its real path). */
function esbuildProgram(): string | undefined {
  try {
    const fromTsx = createRequire(createRequire(import.meta.url).resolve('tsx'))
    const esbuild = path.dirname(fromTsx.resolve('esbuild/package.json'))
    const program = createRequire(path.join(esbuild, 'package.json')).resolve(`@esbuild/${process.platform}-${process.arch}/bin/esbuild`)
    return fs.realpathSync(process.env.ESBUILD_BINARY_PATH ?? program)
  } catch {
    return undefined
  }
}

const harnessPrograms = new Set([esbuildProgram()].filter((program) => program !== undefined))

/** Whether `pid` runs a program the harness starts itself (a zombie or an unreadable process does not). */
function harnessOwn(pid: number): boolean {
  try {
    return harnessPrograms.has(fs.readlinkSync(`/proc/${pid}/exe`))
  } catch {
    return false
  }
}

/** The reaped children's usage at the last check, and how much of its growth since was the harness's own. */
let usageChecked: number | undefined
let usageOwn = 0

/** Starts the watch: processes the harness started before (its compiler runs while the host prepared) are not counted. */
export function watchProcessesFromNow(): void {
  usageChecked = reapedChildrenUsage()
  usageOwn = 0
}

/** Runs harness work that may start processes and wait for them (a compiler run): what they used is not a solution's. */
export function harnessProcesses<T>(work: () => T): T {
  const before = reapedChildrenUsage()
  try {
    return work()
  } finally {
    const after = reapedChildrenUsage()
    if (before !== undefined && after !== undefined) usageOwn += after - before
  }
}

const WHY =
  "A process of its own runs GPU work in a context that this process's timers and audits do not see, so the case is " +
  'refused; the device host kills every process below it and exits'

/**
 * Throws SpawnedProcessError when, since the last check, this process has gained a child the harness did not start, or
 * has waited for one (its reaped children's usage grew beyond the harness's own): `who` started it, found `when`.
 */
export function checkNoProcessesStarted(who: string, when: string): void {
  const children = childProcesses()?.filter((pid) => !harnessOwn(pid))
  const usage = reapedChildrenUsage()
  const reaped = usage !== undefined && usageChecked !== undefined && usage - usageChecked > usageOwn
  usageChecked = usage
  usageOwn = 0
  if (children && children.length > 0) {
    const count = children.length === 1 ? 'a process' : `${children.length} processes`
    throw new SpawnedProcessError(`${who} started ${count} (${children.map(describePid).join(', ')}), found ${when}. ${WHY}`)
  }
  if (reaped) throw new SpawnedProcessError(`${who} started a process and waited for it to end, found ${when}. ${WHY}`)
}

/** Every process below `pid`: its children, theirs, and so on (a process that ended meanwhile has none). */
function descendants(pid: number | 'self'): number[] {
  const found: number[] = []
  const pending = [...(childProcesses(pid) ?? [])]
  while (pending.length > 0) {
    const next = pending.pop()!
    if (found.includes(next)) continue
    found.push(next)
    pending.push(...(childProcesses(next) ?? []))
  }
  return found
}

const signal = (pid: number, name: NodeJS.Signals) => {
  try {
    process.kill(pid, name)
  } catch {
    // Gone already.
  }
}

/**
 * Kills every process below this one. They are stopped first, until no new one appears (a process that keeps forking
 * cannot outrun it), then killed: none is left to run GPU work once the host has gone.
 */
export function killDescendants(): void {
  const stopped = new Set<number>()
  for (let round = 0; round < 100; round++) {
    const found = descendants('self').filter((pid) => !stopped.has(pid) && !harnessOwn(pid))
    if (found.length === 0) break
    for (const pid of found) {
      signal(pid, 'SIGSTOP')
      stopped.add(pid)
    }
  }
  for (const pid of stopped) signal(pid, 'SIGKILL')
}
