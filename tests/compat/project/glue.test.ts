// The Vitest glue of the installed package under the Vitest installed next to it (4.1 or 5), run by .ci/compat in a
// fresh project: entries/ is run by a Vitest started here, as `vitest run` and as `vitest bench` would run it, with
// -t and .only, listed by `vitest list`, and watched. Where no GPU is usable every kernel test is skipped with the
// reason, after compiling: the kernels never run, so the cases' progress is checked only on a GPU. No entry has a
// failing kernel: a property's shrinking is checked on a simulated kernel, GPU or not.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, it, type TestArtifact } from 'vitest'
import { startVitest, version, type TestCase, type TestModule } from 'vitest/node'
import { vectorAddition } from 'vitest-kernel-bench/problems'
// Not exported by the package: the shrinking of kernelProperty, run here on a simulated kernel.
import { checkOnShapes } from './node_modules/vitest-kernel-bench/dist/src/vitest/property.js'
import { resolveShapeSpace } from './node_modules/vitest-kernel-bench/dist/src/vitest/shapes.js'

const entries = fileURLToPath(new URL('./entries/', import.meta.url))
const vitestCli = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs')
const quiet = () => new Writable({ write: (_chunk, _encoding, done) => done() })
/** Vitest's limit for a test that runs Vitest on entries/: each run compiles, which a loaded 2-core runner makes slow. */
const TIMEOUT = 300_000

/**
 * How a test of entries/ went: 'ran' when it ran (passed on a GPU; without one skipped with the reason, after
 * compiling), else its state ('skipped' by a modifier, -t or .only). The reason is the skip's note, or under Vitest
 * 4's `vitest bench` the kernel result's.
 */
function outcome(test: TestCase): string {
  const result = test.result()
  const reason = result.state === 'skipped' ? (result.note ?? test.meta().kernelBench?.skipped) : undefined
  return result.state === 'passed' || reason?.startsWith('no usable CUDA GPU: ') ? 'ran' : result.state
}

/** The case names each test announced while it ran: in its meta (Vitest 4) or as artifacts (Vitest 5). */
function caseListener() {
  const announced = new Map<string, string[]>()
  // Vitest 4 may send a case's meta more than once: each case is counted once.
  const add = (test: TestCase, name: string | undefined) => {
    if (name !== undefined) announced.set(test.fullName, [...new Set([...(announced.get(test.fullName) ?? []), name])])
  }
  const reporter = {
    onTestCaseReady: (test: TestCase) => add(test, test.meta().kernelBenchProgress?.case),
    onTestCaseArtifactRecord: (test: TestCase, artifact: TestArtifact) => add(test, artifact.type === 'vitest-kernel-bench:case' ? artifact.progress.case : undefined),
  }
  return { reporter, announced }
}

/** Each test of the modules as 'file > full name: mode, outcome, the kernel result's mode', sorted. */
function lines(modules: readonly TestModule[]): string[] {
  const errors = modules.flatMap((m) => m.errors())
  if (errors.length > 0) throw new Error(errors.map((e) => e.message).join('\n'))
  return modules
    .flatMap((m) =>
      Array.from(m.children.allTests(), (t) => `${path.basename(m.moduleId)} > ${t.fullName}: ${t.options.mode}, ${outcome(t)}, ${t.meta().kernelBench?.mode}`),
    )
    .sort()
}

/**
 * Runs the entries files named by `filters` in test or bench mode; gives each test's line (see lines()) and checks
 * that the case each kernelBench ran was announced to the reporters, only in bench mode.
 */
async function ran(benchmark: boolean, filters: string[], options: { testNamePattern?: string } = {}): Promise<string[]> {
  const { reporter, announced } = caseListener()
  // Vitest 4 has a benchmark mode, with reporters of its own; Vitest 5 runs only the benchmark projects with
  // `vitest bench`'s option.
  const vitest4 = version.startsWith('4.')
  const [mode, modeOptions] = vitest4 ? [benchmark ? 'benchmark' : 'test', {}] : ['test', { benchmarkOnly: benchmark }]
  const benchmarkReporters: object = vitest4 ? { benchmark: { reporters: [reporter] } } : {}
  const vitest = await startVitest(
    mode as 'test',
    filters,
    { root: entries, watch: false, ...modeOptions, ...options },
    { test: { reporters: [reporter], ...benchmarkReporters } },
    { stdout: quiet(), stderr: quiet() },
  )
  try {
    const modules = vitest.state.getTestModules()
    for (const test of modules.flatMap((m) => Array.from(m.children.allTests()))) {
      const timed = benchmark && test.result().state === 'passed' ? (test.meta().kernelBench?.cases.map((c) => c.name) ?? []) : []
      expect(announced.get(test.fullName) ?? [], test.fullName).toEqual(timed)
    }
    return lines(modules)
  } finally {
    await vitest.close()
  }
}

it(`runs kernelBench entries with their modifiers under vitest run and vitest bench (Vitest ${version})`, { timeout: TIMEOUT }, async () => {
  expect(await ran(false, ['chain.kernel.ts'])).toEqual([
    'chain.kernel.ts > bench skip: skip, skipped, undefined',
    'chain.kernel.ts > bench todo: todo, skipped, undefined',
    'chain.kernel.ts > bench: run, ran, verify',
    'chain.kernel.ts > group > bench in group: run, ran, verify',
    'chain.kernel.ts > property: run, ran, undefined',
  ])
  // kernelProperty only verifies: it registers nothing in a benchmark run.
  expect(await ran(true, ['chain.kernel.ts'])).toEqual([
    'chain.kernel.ts > bench skip: skip, skipped, undefined',
    'chain.kernel.ts > bench todo: todo, skipped, undefined',
    'chain.kernel.ts > bench: run, ran, bench',
    'chain.kernel.ts > group > bench in group: run, ran, bench',
  ])
})

it('runs only the .only entries of a file, and only the entries -t names', { timeout: TIMEOUT }, async () => {
  expect(await ran(false, ['only.kernel.ts'])).toEqual([
    'only.kernel.ts > bench only: run, ran, verify',
    'only.kernel.ts > bench: skip, skipped, undefined',
    'only.kernel.ts > property only: run, ran, undefined',
    'only.kernel.ts > property: skip, skipped, undefined',
  ])
  expect(await ran(true, ['only.kernel.ts'])).toEqual(['only.kernel.ts > bench only: run, ran, bench', 'only.kernel.ts > bench: skip, skipped, undefined'])
  // 'in group' matches the full name under Vitest 4 ('group bench in group') and 5 ('group > bench in group').
  for (const benchmark of [false, true]) {
    const chosen = (await ran(benchmark, ['chain.kernel.ts'], { testNamePattern: 'in group' })).filter((line) => !/: (skip|todo), skipped,/.test(line))
    expect(chosen).toEqual([`chain.kernel.ts > group > bench in group: run, ran, ${benchmark ? 'bench' : 'verify'}`])
  }
})

it('lists the kernelBench and kernelProperty entries with `vitest list`, which exits 0', { timeout: TIMEOUT }, async () => {
  const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined }
  const list = await promisify(execFile)(process.execPath, [vitestCli, 'list'], { cwd: entries, env })
  // Vitest lists the tests that would run: not those skipped by .skip, .todo or another test's .only.
  expect(list.stdout.split('\n').filter(Boolean).sort()).toEqual([
    'chain.kernel.ts > bench',
    'chain.kernel.ts > group > bench in group',
    'chain.kernel.ts > property',
    'only.kernel.ts > bench only',
    'only.kernel.ts > property only',
  ])
})

it('re-runs a kernelBench file in watch mode when the .cu file it names changes', { timeout: TIMEOUT }, async () => {
  // A folder of its own, so the change reaches no other test of the project.
  const folder = fs.mkdtempSync(path.join(entries, 'watch-'))
  fs.copyFileSync(fileURLToPath(new URL('./kernels/sgemm.cu', import.meta.url)), path.join(folder, 'sgemm.cu'))
  fs.writeFileSync(
    path.join(folder, 'watched.kernel.ts'),
    [
      "import { kernelBench } from 'vitest-kernel-bench'",
      "import { matmul } from 'vitest-kernel-bench/problems'",
      "kernelBench('watched', { problem: matmul, solution: './sgemm.cu', cases: [{ name: '256x256x256', params: { m: 256, n: 256, k: 256 } }] })",
    ].join('\n'),
  )
  const runs: string[][] = []
  const reporter = {
    onTestRunEnd: (modules: readonly TestModule[]) => {
      try {
        runs.push(lines(modules))
      } catch (error) {
        runs.push([String(error)])
      }
    },
  }
  const vitest = await startVitest('test', [path.basename(folder)], { root: entries, watch: true, reporters: [reporter] }, {}, { stdout: quiet(), stderr: quiet() })
  const until = async (count: number) => {
    for (const start = Date.now(); runs.length < count; await new Promise((resolve) => setTimeout(resolve, 100))) {
      if (Date.now() - start > TIMEOUT) throw new Error(`watch mode: no run ${count} after ${TIMEOUT / 1000} s`)
    }
  }
  try {
    await until(1)
    fs.appendFileSync(path.join(folder, 'sgemm.cu'), '// changed\n')
    await until(2)
    expect(runs).toEqual([['watched.kernel.ts > watched: run, ran, verify'], ['watched.kernel.ts > watched: run, ran, verify']])
  } finally {
    await vitest.close()
    fs.rmSync(folder, { recursive: true, force: true })
  }
})

it("shrinks a property's failure to the smallest failing shape, with the seed (on a simulated kernel: no GPU needed)", async () => {
  // Wrong from n = 257 on, as a kernel that never writes element 256.
  const runCase = async (c: { name: string; params: Readonly<Record<string, number>> }) => {
    const n = c.params.n!
    const outcome = n > 256 ? { status: 'wrong', message: `element 256 of ${n} out of tolerance`, outputs: [] } : { status: 'ok', outputs: [], verificationSkipped: false }
    return { name: c.name, params: { ...c.params }, flops: n, bytes: 12 * n, outcome }
  }
  const header = { bench: 'simulated', problem: 'vector-addition', dtype: 'float32', cases: [] }
  const outcome = await checkOnShapes({ header, runCase } as never, resolveShapeSpace(vectorAddition, 'float32'), { numRuns: 25, seed: 1 })
  if (outcome.status !== 'failed') throw new Error(`expected a failure, got ${outcome.status}`)
  expect(outcome.counterexample).toEqual({ name: 'n=257', params: { n: 257 } })
  expect(outcome.message).toMatch(/^smallest failing shape: n=257 \(found after \d+ shapes, shrunk [1-9]\d* times; replay with `seed: 1`\)\n/)
  expect(outcome.message).toContain("simulated (vector-addition, float32):\n✗ case 'n=257': element 256 of 257 out of tolerance")
})

it('registers the kernel matchers on the expect of the installed Vitest', async () => {
  const { kernelMatchers } = await import('vitest-kernel-bench')
  // 2 TFLOP in 100 ms: 20 TFLOPS, and the same case 50% slower; 21 samples within ±1% of the median, enough for the
  // interval of the change that toOutperform judges.
  const samplesMs = (median: number) => Array.from({ length: 21 }, (_, i) => median * (1 + (i - 10) / 1000))
  const timed = (bench: string, median: number) =>
    ({
      bench,
      device: { name: 'GPU' },
      cases: [{ name: 'c', flops: 2e12, outcome: { status: 'ok', timing: { samplesMs: samplesMs(median) } }, summary: { median, cv: 0.01 } }],
    }) as never
  expect(Object.keys(kernelMatchers).sort()).toEqual(['toOutperform', 'toReachTflops'])
  expect(timed('fast', 100)).toReachTflops(20)
  expect(timed('fast', 100)).not.toReachTflops(21)
  expect(timed('fast', 100)).toOutperform(timed('slow', 150))
  expect(timed('slow', 150)).not.toOutperform(timed('fast', 100))
})
