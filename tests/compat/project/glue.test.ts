// The Vitest glue of the installed package under the Vitest installed next to it (4.1 or 5), run by .ci/compat in a
// fresh project: entries/ is run by a Vitest started here, as `vitest run` and as `vitest bench` would run it. Where
// no GPU is usable every kernel test is skipped with the reason, after compiling.
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { startVitest, version } from 'vitest/node'
import { kernelBenchPlugin } from 'vitest-kernel-bench/plugin'

const entries = fileURLToPath(new URL('./entries/', import.meta.url))

/** Each test of entries/ as 'full name: mode, state, the kernel result's mode' after a run in test or bench mode. */
async function ran(benchmark: boolean): Promise<string[]> {
  const quiet = new Writable({ write: (_chunk, _encoding, done) => done() })
  const include = ['*.kernel.ts']
  // Vitest 4 has a benchmark mode; Vitest 5 runs only the benchmark projects with `vitest bench`'s option.
  const [mode, options] = version.startsWith('4.') ? [benchmark ? 'benchmark' : 'test', {}] : ['test', { benchmarkOnly: benchmark }]
  const vitest = await startVitest(
    mode as 'test',
    [],
    { root: entries, config: false, watch: false, ...options },
    { plugins: [kernelBenchPlugin()], test: { include, benchmark: { include } } },
    { stdout: quiet, stderr: quiet },
  )
  try {
    const modules = vitest.state.getTestModules()
    const errors = modules.flatMap((m) => m.errors())
    if (errors.length > 0) throw new Error(errors.map((e) => e.message).join('\n'))
    return modules
      .flatMap((m) => Array.from(m.children.allTests(), (t) => `${t.fullName}: ${t.options.mode}, ${t.result().state}, ${t.meta().kernelBench?.mode}`))
      .sort()
  } finally {
    await vitest.close()
  }
}

/** A test that runs is 'passed' on a GPU, 'skipped' (with the reason) without one. */
const outcome = (line: string) => line.replace(/: run, (passed|skipped), /, ': run, passed|skipped, ')

it(`runs kernelBench entries with their modifiers under vitest run and vitest bench (Vitest ${version})`, { timeout: 300_000 }, async () => {
  expect((await ran(false)).map(outcome)).toEqual([
    'bench skip: skip, skipped, undefined',
    'bench todo: todo, skipped, undefined',
    'bench: run, passed|skipped, verify',
    'group > bench in group: run, passed|skipped, verify',
    'property: run, passed|skipped, undefined',
  ])
  // kernelProperty only verifies: it registers nothing in a benchmark run.
  expect((await ran(true)).map(outcome)).toEqual([
    'bench skip: skip, skipped, undefined',
    'bench todo: todo, skipped, undefined',
    'bench: run, passed|skipped, bench',
    'group > bench in group: run, passed|skipped, bench',
  ])
})

it('registers the kernel matchers on the expect of the installed Vitest', async () => {
  const { kernelMatchers } = await import('vitest-kernel-bench')
  // 2 TFLOP in 100 ms: 20 TFLOPS, and the same case 50% slower.
  const timed = (bench: string, median: number) =>
    ({ bench, device: { name: 'GPU' }, cases: [{ name: 'c', flops: 2e12, outcome: { status: 'ok' }, summary: { median, cv: 0.01 } }] }) as never
  expect(Object.keys(kernelMatchers).sort()).toEqual(['toOutperform', 'toReachTflops'])
  expect(timed('fast', 100)).toReachTflops(20)
  expect(timed('fast', 100)).not.toReachTflops(21)
  expect(timed('fast', 100)).toOutperform(timed('slow', 150))
  expect(timed('slow', 150)).not.toOutperform(timed('fast', 100))
})
