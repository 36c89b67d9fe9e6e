// Compiling in parallel, once: many builds at once from one process, bounded across processes by the job slots;
// one process per library while the others wait for it; no lock left behind by a failed build or a dead process.
// What is tested is the scheduling, not nvcc (compile.test.ts tests that): the nvcc the builds call is a stand-in that
// logs when each run starts and ends and, for this file's own small solutions, takes as long as a short nvcc run and
// writes a library the real nvcc built once; anything else (the broken fixture) goes to the real nvcc. No GPU needed:
// nothing is loaded or run.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { vectorAddition } from '../../problems/index.js'
import { COMPILE_JOBS_ENV, jobSlotsDir, resolveCompileJobs } from '../../src/cache/build-locks.js'
import { compile, CompileError, compileSync, findNvcc, type CompileRequest } from '../../src/compile/nvcc.js'
import { PACKAGE_ROOT } from '../../src/spec/paths.js'
import { cPrototype } from '../../src/spec/signature.js'
import { scratchFolder } from '../helpers/scratch.js'

const ARCH = 'sm_90a'
const PROTOTYPE = cPrototype(vectorAddition.signature, 'float32')

const scratch = scratchFolder('kb-compile-pool-')
const runs = path.join(scratch, 'nvcc-runs.log')
const nvcc = path.join(scratch, 'nvcc')
/** How long the stand-in takes for a solution of this file: long enough that runs given slots at once overlap. */
const STAND_IN_SECONDS = 2
beforeAll(async () => {
  const built = await compile({ ...request(solution('built_once'), path.join(scratch, 'built-once')), nvcc: findNvcc() })
  // The wrapper a build compiles includes its source by path: a solution of this file is one under the scratch folder.
  fs.writeFileSync(
    nvcc,
    `#!/bin/sh
echo "start $$ $(date +%s%N)" >> ${runs}
output=; input=; previous=
for arg in "$@"; do
  if [ "$previous" = "-o" ]; then output=$arg; elif [ -n "$output" ] && [ -z "$input" ]; then input=$arg; fi
  previous=$arg
done
if grep -qF '#include "${scratch}/' "$input"; then
  sleep ${STAND_IN_SECONDS}; cp "${built.path}" "$output"; status=$?
else
  "${findNvcc()}" "$@"; status=$?
fi
echo "end $$ $(date +%s%N)" >> ${runs}
exit $status
`,
  )
  fs.chmodSync(nvcc, 0o755)
})

/** The nvcc runs logged so far, as [start, end] in ns, and the log emptied. */
function takeRuns(): Array<[number, number]> {
  const lines = fs.existsSync(runs) ? fs.readFileSync(runs, 'utf8').trim().split('\n') : []
  fs.rmSync(runs, { force: true })
  const starts = new Map<string, number>()
  const spans: Array<[number, number]> = []
  for (const [event, pid, ns] of lines.map((line) => line.split(' '))) {
    if (event === 'start') starts.set(pid!, Number(ns))
    else spans.push([starts.get(pid!)!, Number(ns)])
  }
  return spans
}

/** The most runs in progress at one moment. */
function mostAtOnce(spans: ReadonlyArray<[number, number]>): number {
  const events = spans.flatMap(([start, end]) => [[start, 1] as const, [end, -1] as const]).sort((a, b) => a[0] - b[0] || a[1] - b[1])
  let now = 0
  let most = 0
  for (const [, change] of events) most = Math.max(most, (now += change))
  return most
}

/** A small solution of its own (distinct text, so a distinct library). */
function solution(name: string): string {
  const file = path.join(scratch, `${name}.cu`)
  fs.writeFileSync(
    file,
    `__global__ void add(const float* a, const float* b, float* c, size_t n) { size_t i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) c[i] = a[i] + b[i]; }\n` +
      `extern "C" void solution(const float* a, const float* b, float* c, size_t n) { add<<<(n + 255) / 256, 256>>>(a, b, c, n); } // ${name}\n`,
  )
  return file
}

// Job slots of the test's own, so the bound it checks is not shared with the other test files compiling meanwhile.
const request = (source: string, cacheDir: string, jobs?: number): CompileRequest => ({
  source,
  prototype: PROTOTYPE,
  arch: ARCH,
  nvcc,
  cacheDir,
  jobs,
  jobSlots: path.join(cacheDir, 'jobs'),
})

/** Locks left in a cache directory: the libraries' and the job slots'. */
function locksIn(cacheDir: string): string[] {
  return fs.readdirSync(cacheDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.lock'))
}

/** Compiles in a separate process (tests/fixtures/compile-library.ts); resolves with what it printed. */
async function compileElsewhere(req: CompileRequest): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'tests/fixtures/compile-library.ts', JSON.stringify(req)], {
    cwd: PACKAGE_ROOT,
  })
  return stdout.trim()
}

describe('compile: in parallel, once', () => {
  it(
    'runs the builds of distinct libraries at once, never more than `jobs` nvcc at a time',
    async () => {
      const cacheDir = path.join(scratch, 'parallel')
      const sources = ['p0', 'p1', 'p2', 'p3', 'p4'].map(solution)
      const libraries = await Promise.all(sources.map((source) => compile(request(source, cacheDir, 2))))
      expect(libraries.map((l) => l.cached)).toEqual([false, false, false, false, false])
      expect(new Set(libraries.map((l) => l.path)).size).toBe(5)
      const spans = takeRuns()
      expect(spans).toHaveLength(5)
      expect(mostAtOnce(spans)).toBe(2)
      expect(locksIn(cacheDir)).toEqual([])
    },
  )

  it(
    'compiles a library once when two processes and two callers in this one ask for it at the same time',
    async () => {
      const cacheDir = path.join(scratch, 'once')
      const req = request(solution('once'), cacheDir)
      const [elsewhere, here, again] = await Promise.all([compileElsewhere(req), compile(req), compile(req)])
      expect(takeRuns()).toHaveLength(1)
      const results = [JSON.parse(elsewhere) as { path: string; cached: boolean }, here, again]
      expect(new Set(results.map((r) => r.path)).size).toBe(1)
      expect(results.filter((r) => !r.cached)).toHaveLength(results[0]!.cached ? 2 : 1) // this process's two callers share one build
      expect(locksIn(cacheDir)).toEqual([])
    },
  )

  it(
    'a failed build releases its locks and reports the error to every caller, without running nvcc again',
    async () => {
      const cacheDir = path.join(scratch, 'failed')
      const broken = path.join(PACKAGE_ROOT, 'tests/fixtures/solutions/syntax_error.cu')
      const [first, second] = await Promise.allSettled([compile(request(broken, cacheDir)), compile(request(broken, cacheDir))])
      expect(first.status === 'rejected' && first.reason).toBeInstanceOf(CompileError)
      expect(second.status === 'rejected' && (second.reason as Error).message).toBe(
        `nvcc failed to compile ${broken}:5\n  ${broken}:5: identifier "undeclared_function_call" is undefined`,
      )
      await expect(compile(request(broken, cacheDir))).rejects.toBeInstanceOf(CompileError)
      expect(takeRuns()).toHaveLength(1)
      expect(locksIn(cacheDir)).toEqual([])
      // Nothing is held: another library compiles with a single job slot.
      expect((await compile(request(solution('after_failure'), cacheDir, 1))).cached).toBe(false)
    },
  )

  it(
    "takes over the library's lock and the job slot left by a process that died compiling",
    async () => {
      const cacheDir = path.join(scratch, 'stale')
      const req = request(solution('stale'), cacheDir, 1)
      const { path: library } = await compile(req)
      fs.rmSync(library)
      const dead = await deadPid()
      for (const lock of [`${library}.lock`, path.join(cacheDir, 'jobs/slot-0.lock')]) fs.writeFileSync(lock, String(dead))
      takeRuns()
      expect(await compile(req)).toEqual({ path: library, cached: false })
      expect(takeRuns()).toHaveLength(1)
      expect(locksIn(cacheDir)).toEqual([])
    },
  )
})

describe('compile: the host-wide job slots and the time limit', () => {
  it(
    'bounds nvcc across caches: builds for two cache directories share the same slots by default',
    async () => {
      // The default folder belongs to the user, not to a cache: every process of the user shares it.
      expect(jobSlotsDir()).toBe(path.join(os.tmpdir(), `vitest-kernel-bench-${process.getuid!()}`, 'nvcc-jobs'))
      const slots = path.join(scratch, 'host-slots')
      const both = ['a', 'b'].map((name) => ({ ...request(solution(`cache_${name}`), path.join(scratch, `cache-${name}`), 1), jobSlots: slots }))
      await Promise.all(both.map((req) => compile(req)))
      expect(mostAtOnce(takeRuns())).toBe(1)
      expect(fs.readdirSync(slots)).toEqual([])
    },
  )

  it('stops an nvcc that runs past its limit, counted from its start, and says so', async () => {
    const hung = path.join(scratch, 'hung-nvcc')
    fs.writeFileSync(hung, `#!/bin/sh
exec sleep 60
`)
    fs.chmodSync(hung, 0o755)
    const cacheDir = path.join(scratch, 'hung')
    const source = solution('hung')
    const req: CompileRequest = { ...request(source, cacheDir), nvcc: hung, timeoutMs: 300 }
    await expect(compile(req)).rejects.toThrow(
      `nvcc did not finish compiling ${source} within 0.3 s of running, and was stopped (the time waiting for a free nvcc job slot does not count)`,
    )
    expect(() => compileSync(req)).toThrow(`nvcc did not finish compiling ${source} within 0.3 s of running`)
    expect(locksIn(cacheDir)).toEqual([])
    expect(fs.readdirSync(cacheDir).filter((f) => f.includes('.tmp'))).toEqual([])
  })
})

/** The pid of a process that has exited (and been reaped). */
async function deadPid(): Promise<number> {
  const child = execFile(process.execPath, ['-e', ''])
  await new Promise((resolve) => child.on('exit', resolve))
  return child.pid!
}

describe('resolveCompileJobs', () => {
  it('is the option, else the environment variable, else the number of cores', () => {
    expect(resolveCompileJobs(3, { [COMPILE_JOBS_ENV]: '5' })).toBe(3)
    expect(resolveCompileJobs(undefined, { [COMPILE_JOBS_ENV]: '5' })).toBe(5)
    expect(resolveCompileJobs(undefined, {})).toBe(os.availableParallelism())
  })

  it('rejects anything but a whole number >= 1, naming where it came from', () => {
    expect(() => resolveCompileJobs(0)).toThrow('compileJobs must be a whole number >= 1 (got 0)')
    expect(() => resolveCompileJobs(1.5)).toThrow('compileJobs must be a whole number >= 1 (got 1.5)')
    expect(() => resolveCompileJobs(undefined, { [COMPILE_JOBS_ENV]: 'many' })).toThrow(`${COMPILE_JOBS_ENV} must be a whole number >= 1 (got many)`)
  })
})
