// The reporter's progress line: its text, when its clock restarts, how the case reaches it under each Vitest major,
// and that it stays out of non-terminal output.
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import pc from 'picocolors'
import { afterEach, describe, expect, it, vi, type TestArtifact } from 'vitest'
import { startVitest, type TestCase, type Vitest } from 'vitest/node'
import { kernelBenchPlugin } from '../../src/plugin.js'
import { CASE_ARTIFACT } from '../../src/vitest/registry.js'
import { formatProgressLine, ProgressLine, updateRunningBench, type RunningBench } from '../../src/report/progress-line.js'
import { KernelBenchReporter } from '../../src/reporter.js'
import type { KernelBenchProgress } from '../../src/shared/results.js'

const plain = pc.createColors(false)
const sgemm: RunningBench = {
  name: 'sgemm tiled',
  file: 'bench/gemm.bench.ts',
  progress: { case: '4096x4096x4096', index: 2, total: 5 },
  since: 1_000,
}

describe('formatProgressLine', () => {
  it('shows the bench, the case it runs (counted from 1) and how long that case has run', () => {
    expect(formatProgressLine([sgemm], { now: 3_100, frame: 0, columns: 100, colors: plain })).toBe(
      "⠋ sgemm tiled · case 3/5 '4096x4096x4096' · bench/gemm.bench.ts  2.1 s",
    )
  })

  it('before the first case, shows the bench alone; counts the other benches running; turns the spinner', () => {
    const starting: RunningBench = { name: 'vector add', file: 'bench/vector.bench.ts', since: 0 }
    expect(formatProgressLine([starting, sgemm], { now: 65_400, frame: 11, columns: 100, colors: plain })).toBe(
      '⠙ vector add · bench/vector.bench.ts (+1 more)  1 min 05 s',
    )
  })

  it('cuts the label to one character short of the terminal width, keeping the time', () => {
    const line = formatProgressLine([sgemm], { now: 3_100, frame: 0, columns: 40, colors: plain })
    expect(line).toBe("⠋ sgemm tiled · case 3/5 '4096x…  2.1 s")
    expect(line).toHaveLength(39)
  })

  it('colours the spinner and dims the time', () => {
    const colors = pc.createColors(true)
    expect(formatProgressLine([sgemm], { now: 3_100, frame: 0, columns: 100, colors })).toBe(
      `${colors.cyan('⠋')} sgemm tiled · case 3/5 '4096x4096x4096' · bench/gemm.bench.ts${colors.dim('  2.1 s')}`,
    )
  })

  it('is empty when no bench runs', () => {
    expect(formatProgressLine([], { now: 0, frame: 0, columns: 80, colors: plain })).toBe('')
  })
})

describe('updateRunningBench', () => {
  const { since: _, ...started } = { ...sgemm, progress: undefined }
  const atCase = (index: number) => ({ ...started, progress: { case: `case ${index}`, index, total: 5 } })

  it('starts the clock when the bench starts and again at each new case', () => {
    const first = updateRunningBench(undefined, started, 10)
    expect(first.since).toBe(10)
    const case0 = updateRunningBench(first, atCase(0), 20)
    expect(case0).toEqual({ ...atCase(0), since: 20 })
    expect(updateRunningBench(case0, atCase(1), 30).since).toBe(30)
  })

  it('keeps the clock when the worker repeats the case it runs', () => {
    const case1 = updateRunningBench(undefined, atCase(1), 30)
    expect(updateRunningBench(case1, atCase(1), 40).since).toBe(30)
    expect(updateRunningBench(updateRunningBench(undefined, started, 10), started, 50).since).toBe(10)
  })
})

describe("the reporter's progress line", () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  /** A reporter as on a terminal, reporting tests too as under Vitest 5; what it told the progress line, per test. */
  function reporterOnTerminal() {
    const updates: Array<[string, Omit<RunningBench, 'since'>]> = []
    vi.spyOn(ProgressLine.prototype, 'update').mockImplementation((id, bench) => void updates.push([id, bench]))
    const reporter = new KernelBenchReporter({}, { isTTY: true, testsToo: true })
    const ctx = { config: { root: '/project' }, logger: { printBanner: () => {} }, onClose: () => {} }
    reporter.onInit(ctx as unknown as Vitest)
    return { reporter, updates }
  }

  /** A test of a benchmark project (Vitest 5's) or of a test project, whose meta may name a case (Vitest 4). */
  function testCase(benchmark: boolean, progress?: KernelBenchProgress): TestCase {
    const module = { moduleId: '/project/bench/gemm.bench.ts', project: { config: { benchmark: { enabled: benchmark } } } }
    return { id: 't1', name: 'sgemm tiled', module, meta: () => ({ kernelBenchProgress: progress }) } as unknown as TestCase
  }

  const progress = { case: '4096x4096x4096', index: 2, total: 5 }

  it('names the case that Vitest 4 sends in the meta of a ready test', () => {
    const { reporter, updates } = reporterOnTerminal()
    reporter.onTestCaseReady(testCase(true))
    reporter.onTestCaseReady(testCase(true, progress))
    expect(updates).toEqual([
      ['t1', { name: 'sgemm tiled', file: 'bench/gemm.bench.ts', progress: undefined }],
      ['t1', { name: 'sgemm tiled', file: 'bench/gemm.bench.ts', progress }],
    ])
  })

  it("names the case that Vitest 5 records as the test's artifact, for benchmark projects only", () => {
    const { reporter, updates } = reporterOnTerminal()
    reporter.onTestCaseArtifactRecord(testCase(true), { type: CASE_ARTIFACT, progress })
    reporter.onTestCaseArtifactRecord(testCase(true), { type: 'internal:annotation', annotation: { message: 'a note', type: 'notice' } } as TestArtifact)
    reporter.onTestCaseArtifactRecord(testCase(false), { type: CASE_ARTIFACT, progress })
    expect(updates).toEqual([['t1', { name: 'sgemm tiled', file: 'bench/gemm.bench.ts', progress }]])
  })
})

describe('the progress line under vitest bench', () => {
  afterEach(() => {
    vi.restoreAllMocks()
    vi.unstubAllEnvs()
  })

  it('is never drawn when stdout is not a terminal', async () => {
    expect(process.stdout.isTTY).toBeFalsy() // Vitest's workers write to a pipe
    // The reporter writes the results where these ask; this run's must not reach a CI job's files.
    vi.stubEnv('KERNELBENCH_JSON', '')
    vi.stubEnv('GITHUB_STEP_SUMMARY', '')
    const logged: string[] = []
    const sink = new Writable({
      write: (chunk, _encoding, done) => {
        logged.push(String(chunk))
        done()
      },
    })
    const direct = [vi.spyOn(process.stdout, 'write'), vi.spyOn(process.stderr, 'write')]
    const exitCode = process.exitCode
    const vitest = await startVitest(
      'benchmark',
      [],
      { root: fileURLToPath(new URL('../fixtures/progress/', import.meta.url)), config: false, watch: false, cache: false },
      { plugins: [kernelBenchPlugin()], test: { benchmark: { include: ['no-cases.bench.ts'] } } },
      { stdout: sink, stderr: sink },
    )
    await vitest.close()
    process.exitCode = exitCode // the fixture's bench fails on purpose

    const output = [...logged, ...direct.flatMap((spy) => spy.mock.calls.map(([chunk]) => String(chunk)))].join('')
    expect(output).toContain('no cases') // the bench's own line: the output was captured
    expect(output).not.toMatch(/\x1b\[2K|[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/)
  })
})
