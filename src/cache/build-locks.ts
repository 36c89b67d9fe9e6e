// The two cross-process guards on nvcc, kept as lock files: a lock per library, in the cache directory (one process
// compiles it; the others wait, then find it in the cache), and a bounded set of job slots shared by every process
// of this user on this host, whatever its cache (at most `jobs` nvcc processes at once: they compete for the same
// cores).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { tryLock, type Attempt } from './lock-file.js'

export const COMPILE_JOBS_ENV = 'KERNELBENCH_COMPILE_JOBS'

/**
 * How many nvcc processes may run at once: the plugin's `compileJobs`, else KERNELBENCH_COMPILE_JOBS, else the
 * number of cores (nvcc is single-threaded and CPU-bound).
 */
export function resolveCompileJobs(option: number | undefined, env: NodeJS.ProcessEnv = process.env): number {
  const [jobs, where] =
    option !== undefined ? [option, 'compileJobs'] : env[COMPILE_JOBS_ENV] ? [Number(env[COMPILE_JOBS_ENV]), COMPILE_JOBS_ENV] : [os.availableParallelism(), '']
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`${where} must be a whole number >= 1 (got ${String(option ?? env[COMPILE_JOBS_ENV])})`)
  return jobs
}

/** The lock of the library at `output`, held while it is compiled. */
export function tryLibraryLock(output: string): Attempt {
  return tryLock(`${output}.lock`)
}

/** The host's job slots: one folder per user in the system's temporary folder. */
export function jobSlotsDir(): string {
  return path.join(os.tmpdir(), `vitest-kernel-bench-${process.getuid?.() ?? 'user'}`, 'nvcc-jobs')
}

/** The first free one of `jobs` slots in `dir`, or the owner of the first slot when all are held. */
export function tryJobSlot(dir: string, jobs: number): Attempt {
  fs.mkdirSync(dir, { recursive: true })
  let owner = 0
  for (let slot = 0; slot < jobs; slot++) {
    const attempt = tryLock(path.join(dir, `slot-${slot}.lock`))
    if (typeof attempt === 'function') return attempt
    owner ||= attempt
  }
  return owner
}
