// What a solution could change in the worker from its device host, to reach the hosts the worker starts later:
// the worker's scheduling priority (niceness, set with setpriority on the parent's pid) and the CPUs it may run on
// (sched_setaffinity on the parent). A host is a child of the worker and inherits both, so a solution that lowers
// the worker's priority or pins it to one CPU would slow every later solution's host. And an MPS control daemon: once
// its pipe is where the hosts look for it, every CUDA process the worker starts is a client of the MPS server,
// running in the server's context instead of one of its own. The worker reads all three when it loads, compares after
// every case, puts back what it can and refuses its cases while it cannot.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export interface ProcessState {
  /** Niceness, as os.getPriority gives it (-20 … 19). */
  nice: number
  /** The CPUs the process may run on, as Linux lists them ('0-31'); '' where there is no procfs. */
  cpus: string
  /** The control pipe of an MPS daemon that the process's CUDA children would connect to, if there is one. */
  mpsPipe?: string
}

/**
 * Where a CUDA process started with `env` looks for an MPS daemon's control pipe: CUDA_MPS_PIPE_DIRECTORY, else
 * /tmp/nvidia-mps (NVIDIA's MPS documentation).
 */
export function mpsControlPipe(env: Record<string, string | undefined> = process.env): string {
  return path.join(env.CUDA_MPS_PIPE_DIRECTORY || '/tmp/nvidia-mps', 'control')
}

/** The scheduling state of a process (this one by default), with the MPS pipe its CUDA children would find. */
export function readProcessState(pid = process.pid, mpsPipe = mpsControlPipe()): ProcessState {
  let cpus = ''
  try {
    cpus = /^Cpus_allowed_list:\s*(.*)$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]?.trim() ?? ''
  } catch {
    // not Linux: the CPU set is not compared
  }
  return { nice: os.getPriority(pid), cpus, ...(fs.existsSync(mpsPipe) && { mpsPipe }) }
}

/**
 * Puts the process's state back to `expected` where it changed: the niceness by setpriority (raising the priority
 * back needs the privilege to, which a plain user lacks), the CPU set not at all (Node has no call for it), an MPS
 * daemon neither (another process, which the harness leaves alone). Returns what changed, and whether all of it could
 * be put back; undefined when nothing changed.
 */
export function restoreProcessState(expected: ProcessState, pid = process.pid, mpsPipe = mpsControlPipe()): { change: string; restored: boolean } | undefined {
  const now = readProcessState(pid, mpsPipe)
  const changes: string[] = []
  let restored = true
  if (now.nice !== expected.nice) {
    changes.push(`its niceness from ${expected.nice} to ${now.nice}`)
    try {
      os.setPriority(pid, expected.nice)
    } catch {
      restored = false
    }
  }
  if (now.cpus !== expected.cpus) {
    changes.push(`the CPUs it may run on from ${expected.cpus} to ${now.cpus}`)
    restored = false
  }
  if (now.mpsPipe !== expected.mpsPipe) {
    changes.push(
      now.mpsPipe
        ? `an MPS control daemon started (its pipe ${now.mpsPipe} appeared), so every CUDA process it starts would run as a client of the MPS server; stop it with \`echo quit | nvidia-cuda-mps-control\``
        : `the MPS control daemon it started under stopped (its pipe ${expected.mpsPipe} is gone)`,
    )
    restored = false
  }
  return changes.length > 0 ? { change: changes.join(' and '), restored } : undefined
}
