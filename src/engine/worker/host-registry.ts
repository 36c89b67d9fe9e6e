// The device hosts of one `vitest` run, so that the run ends only once every one of them has: a folder per run
// (named by KERNELBENCH_RUN_DIR, which the plugin sets in Vitest's main process and every worker inherits) holds a
// file per host process, written by the worker that starts it. Vitest stops a worker with SIGTERM, and its hosts
// then tear their contexts down while nobody times (src/engine/host/host.ts) after the worker is gone; the main
// process waits for them at its close, and kills any that outlive a grace period, saying which.
import type { ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { isLive } from '../../cache/lock-file.js'

export const RUN_DIR_ENV = 'KERNELBENCH_RUN_DIR'

/** How often the end of a run looks whether its hosts are gone. */
const POLL_MS = 50

/**
 * Records a host process in the run's folder until it exits (nothing outside a run: a CLI ends its own hosts). A host
 * started once the run has begun to end (its folder gone, see endRun) is killed at once: nothing would wait for it.
 */
export function registerHost(child: ChildProcess, env: NodeJS.ProcessEnv = process.env): void {
  const dir = env[RUN_DIR_ENV]
  if (!dir || child.pid === undefined) return
  const file = path.join(dir, String(child.pid))
  try {
    fs.writeFileSync(file, '')
  } catch {
    child.kill('SIGKILL')
    return
  }
  child.once('exit', () => fs.rmSync(file, { force: true }))
}

/** Starts a run: a fresh folder for its hosts, named in the environment its workers inherit. */
export function startRun(env: NodeJS.ProcessEnv = process.env): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-run-'))
  env[RUN_DIR_ENV] = dir
  return dir
}

/** The processes recorded in a run's folder that still run. */
export function liveHosts(dir: string): number[] {
  let names: string[]
  try {
    names = fs.readdirSync(dir)
  } catch {
    return []
  }
  return names.map(Number).filter((pid) => Number.isInteger(pid) && isLive(pid))
}

/**
 * Waits until every host of the run has exited, for at most `graceMs`; kills the ones left with SIGKILL and returns
 * their pids. The folder is moved aside first, so that a host started from now on (a spare started as the last case
 * ended) finds no folder and is killed by registerHost, rather than slipping in after the last look; it is removed
 * at the end.
 */
export async function endRun(dir: string, graceMs: number): Promise<number[]> {
  const ending = `${dir}.ending`
  try {
    fs.renameSync(dir, ending)
  } catch {
    return [] // ended already
  }
  const deadline = performance.now() + graceMs
  let left = liveHosts(ending)
  while (left.length > 0 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    left = liveHosts(ending)
  }
  // One that exits between the last look and the kill is gone either way: it is not counted as killed.
  const killed = left.filter((pid) => {
    try {
      process.kill(pid, 'SIGKILL')
      return true
    } catch {
      return false
    }
  })
  fs.rmSync(ending, { recursive: true, force: true })
  return killed
}
