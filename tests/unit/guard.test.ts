// The CI guard on synthetic bench results (no GPU): baselines read, written with -u, compared, floors, GPU
// mismatch, key stability; and how a failing verdict reaches failureMessage and the table.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { guardResult, resolveBaselineSettings, type GuardContext, type GuardRules } from '../../src/baseline/guard.js'
import { keyString, readBaseline } from '../../src/baseline/store.js'
import { resolveSpec } from '../../src/vitest/resolve-spec.js'
import type { DeviceReport } from '../../src/shared/messages.js'
import { DEFAULT_MEASURE_OPTIONS } from '../../src/spec/options.js'
import { SOL_WARNING, renderKernelResult } from '../../src/report/kernel-table.js'
import { failureMessage, type CaseResult, type KernelBenchResult } from '../../src/shared/results.js'
import { vectorAddition } from '../../problems/index.js'
import { makeScratch, removeScratch } from '../helpers/scratch.js'
import { idealStream } from '../helpers/time-streams.js'
import { summarize } from '../../src/shared/stats.js'

const H100 = 'NVIDIA H100 80GB HBM3'
const A100 = 'NVIDIA A100-SXM4-80GB'
const FLOPS = 1e11 // at a 10 ms median: 10 TFLOPS

const BOARD_1 = 'GPU-11111111-1111-1111-1111-111111111111'
const BOARD_2 = 'GPU-22222222-2222-2222-2222-222222222222'

function device(name = H100, uuid = BOARD_1): DeviceReport {
  return {
    index: 0,
    name,
    uuid,
    pciBusId: '0000:00:00.0',
    computeCapability: '9.0',
    multiProcessors: 132,
    l2CacheBytes: 50 * 2 ** 20,
    totalMemoryBytes: 80 * 2 ** 30,
    maxSmClockMHz: 1980,
    memoryClockMHz: 2619,
    memoryBusWidthBits: 5120,
    runtimeVersion: '13.0',
    driverVersion: '13.0',
    startSmClockMHz: 1980,
  }
}

/**
 * A timed case of 101 samples whose median is exactly `medianMs` (so FLOPS / medianMs TFLOPS) and whose coefficient
 * of variation is about `cv`.
 */
/** A 2% tolerance and 0.5% assumed spread, for which the figures below were worked out (the defaults are tested apart). */
const TIGHT = { tolerance: 0.02, runSpread: 0.005 }

function timedCase(name: string, medianMs: number, cv = 0.005, flops = FLOPS): CaseResult {
  const samplesMs = idealStream(101, medianMs, cv)
  return {
    name,
    params: { n: 4096 },
    flops,
    bytes: 2e8,
    outcome: {
      status: 'ok',
      outputs: [],
      verificationSkipped: false,
      timing: { samplesMs, droppedThrottled: 0, meanSmClockMHz: 1980, maxSmClockMHz: 1980, stopReason: 'target-cv', wallMs: 100, callsPerSample: 1, checkedCalls: 3, droppedInterference: 0 },
    },
    summary: summarize(samplesMs),
  }
}

function benchResult(bench: string, cases: CaseResult[], gpu = H100, board = BOARD_1): KernelBenchResult {
  return {
    version: 1,
    bench,
    problem: 'matrix-multiplication',
    solution: 'sgemm.cu',
    dtype: 'float32',
    mode: 'bench',
    device: device(gpu, board),
    arch: 'sm_90a',
    options: { ...DEFAULT_MEASURE_OPTIONS },
    cases,
  }
}

let root: string
let benchFile: string
const NOW = new Date('2026-01-02T03:04:05.000Z')

/** The guard's context; `floors` and `allowAboveRoofline` go into its rules. */
function context({ floors = {}, allowAboveRoofline = false, ...overrides }: Partial<GuardContext & GuardRules> = {}): GuardContext {
  return { benchFile, root, rules: { floors, allowAboveRoofline }, settings: resolveBaselineSettings(TIGHT), update: false, now: NOW, ...overrides }
}

beforeEach(() => {
  root = makeScratch('kb-guard-')
  benchFile = path.join(root, 'bench', 'gemm.bench.ts')
})
afterEach(() => removeScratch(root))

const baselineFile = () => path.join(root, '__kernelbench__', 'bench__gemm.bench.ts.json')

describe('guardResult', () => {
  it('update mode keeps the share of a case\'s time in copies off the device with its run, where the timing measured one', () => {
    const copying = timedCase('4096', 10)
    if (copying.outcome.status !== 'ok') throw new Error('unreachable')
    copying.outcome.timing!.hostShare = 0.25
    guardResult(benchResult('sgemm', [copying, timedCase('2048', 2)]), context({ update: true }))
    const entries = readBaseline(baselineFile())!.entries
    const runOf = (caseName: string) => entries[keyString({ bench: 'sgemm', caseName, dtype: 'float32', gpu: H100 })]!.runs![0]!
    expect(runOf('4096').hostShare).toBe(0.25)
    expect(runOf('2048')).not.toHaveProperty('hostShare')
  })

  it('without a baseline: no-baseline, not failing, nothing written', () => {
    const judged = guardResult(benchResult('sgemm', [timedCase('4096', 10)]), context())
    const v = judged.cases[0]!.verdict!
    expect(v.kind).toBe('no-baseline')
    expect(v.fails).toBe(false)
    expect(v.floors).toEqual([])
    expect(v.message).toContain('no baseline on NVIDIA H100')
    expect(judged.baseline).toEqual({ file: baselineFile(), written: false })
    expect(fs.existsSync(baselineFile())).toBe(false)
    expect(failureMessage(judged)).toBeUndefined()
  })

  it('update mode writes a baseline that a normal run reads back as unchanged', () => {
    const first = guardResult(benchResult('sgemm', [timedCase('4096', 10, 0.004), timedCase('2048', 2, 0.004)]), context({ update: true }))
    expect(first.baseline).toEqual({ file: baselineFile(), written: true })
    expect(first.cases.map((c) => c.verdict!.kind)).toEqual(['updated', 'updated'])
    expect(first.cases[0]!.verdict!.message).toContain('baseline recorded: 10.0 TFLOPS ±0.4% on NVIDIA H100')

    const stored = readBaseline(baselineFile())!
    const key = keyString({ bench: 'sgemm', caseName: '4096', dtype: 'float32', gpu: H100 })
    const summary = first.cases[0]!.summary!
    expect(stored.entries[key]).toEqual({
      tflops: 10,
      runtimeMs: 10,
      cv: summary.cv,
      gpu: H100,
      measuredAt: NOW.toISOString(),
      runs: [{ runtimeMs: 10, medianSe: expect.closeTo(0.0005, 4), n: 101, measuredAt: NOW.toISOString(), board: BOARD_1 }],
    })
    expect(Object.keys(stored.entries)).toHaveLength(2)

    // A second run 0.5% slower: within the 2% tolerance even with the assumed between-run spread.
    const second = guardResult(benchResult('sgemm', [timedCase('4096', 10.05, 0.004), timedCase('2048', 2, 0.004)]), context())
    expect(second.cases.map((c) => c.verdict!.kind)).toEqual(['unchanged', 'unchanged'])
    const v = second.cases[0]!.verdict!
    expect(v.change).toBeCloseTo(10 / 10.05 - 1, 12)
    expect(v).toMatchObject({ tolerance: 0.02, runSpread: { spread: 0.005, runs: 1, measured: false }, interval: { confidence: 0.95 } })
    expect(v.interval!.low).toBeLessThan(v.change!)
    expect(v.interval!.high).toBeGreaterThan(v.change!)
    expect(second.baseline!.written).toBe(false)
    expect(failureMessage(second)).toBeUndefined()
  })

  it('update mode adds runs up to keepRuns, so the spread is measured; a changed speed starts the runs again', () => {
    const settings = resolveBaselineSettings({ ...TIGHT, keepRuns: 3 })
    const key = keyString({ bench: 'sgemm', caseName: '4096', dtype: 'float32', gpu: H100 })
    const runsKept = () => readBaseline(baselineFile())!.entries[key]!.runs!.map((r) => r.runtimeMs)
    for (const medianMs of [10, 10.05, 9.95, 10.02]) guardResult(benchResult('sgemm', [timedCase('4096', medianMs)]), context({ settings, update: true }))
    expect(runsKept()).toEqual([10.05, 9.95, 10.02])
    const judged = guardResult(benchResult('sgemm', [timedCase('4096', 10)]), context({ settings })).cases[0]!.verdict!
    expect(judged.runSpread).toMatchObject({ runs: 3, measured: true })
    expect(judged.message).toContain('from 3 runs')

    const faster = guardResult(benchResult('sgemm', [timedCase('4096', 8)]), context({ settings, update: true })).cases[0]!.verdict!
    expect(faster.message).toMatch(/\(was 9\.99, \+25\.1%; improvement: the 3 earlier runs are dropped\)$/)
    expect(runsKept()).toEqual([8])
  })

  it('keeps the newest keepRuns runs of each board, and judges a run mostly by its own board\'s runs where there are some', () => {
    const settings = resolveBaselineSettings({ ...TIGHT, keepRuns: 2 })
    const key = keyString({ bench: 'sgemm', caseName: '4096', dtype: 'float32', gpu: H100 })
    const record = (medianMs: number, board: string) => guardResult(benchResult('sgemm', [timedCase('4096', medianMs)], H100, board), context({ settings, update: true }))
    record(10, BOARD_1)
    record(10.3, BOARD_2)
    record(10.01, BOARD_1)
    record(10.31, BOARD_2)
    record(10.02, BOARD_1)
    expect(readBaseline(baselineFile())!.entries[key]!.runs!.map((r) => [r.runtimeMs, r.board])).toEqual([
      [10.3, BOARD_2],
      [10.01, BOARD_1],
      [10.31, BOARD_2],
      [10.02, BOARD_1],
    ])
    // Board 2 runs 3% slower than board 1: judged mostly by its own runs, a run of it is unchanged, where against
    // board 1's it would be a 3% regression.
    const onBoard2 = guardResult(benchResult('sgemm', [timedCase('4096', 10.3)], H100, BOARD_2), context({ settings })).cases[0]!.verdict!
    expect(onBoard2).toMatchObject({ kind: 'unchanged', change: expect.closeTo(10.305 / 10.3 - 1, 3) })
    expect(onBoard2.message).toMatch(/from 4 runs; between-board spread \d\.\d% from 2 boards: this board's runs weigh 9\d% against the other boards'/)
    // A third board, never recorded, is judged against both boards' means, with the spread between them.
    const onBoard3 = guardResult(benchResult('sgemm', [timedCase('4096', 10.3)], H100, 'GPU-3'), context({ settings })).cases[0]!.verdict!
    expect(onBoard3.kind).toBe('inconclusive')
    expect(onBoard3.boardSpread).toMatchObject({ boards: 2, measured: true })
    expect(onBoard3.message).toMatch(/between-board spread \d\.\d% from 2 boards, as no run of this board was recorded/)
  })

  it('keeps a board\'s first run beside the other boards\' whatever it reads, and starts again when a board\'s own runs say its speed changed', () => {
    const settings = resolveBaselineSettings(TIGHT)
    const key = keyString({ bench: 'sgemm', caseName: '4096', dtype: 'float32', gpu: H100 })
    const record = (medianMs: number, board: string) =>
      guardResult(benchResult('sgemm', [timedCase('4096', medianMs)], H100, board), context({ settings, update: true })).cases[0]!.verdict!
    const boards = () => readBaseline(baselineFile())!.entries[key]!.runs!.map((r) => [r.runtimeMs, r.board])
    record(10, BOARD_1)
    record(10.01, BOARD_1)
    // 10% slower than board 1 reads as a regression, but from a board with no run of its own that may be the board.
    const first = record(11, BOARD_2)
    expect(first.message).toContain("regression against other boards, kept beside their runs as this board's first: 3 runs kept")
    expect(boards()).toEqual([[10, BOARD_1], [10.01, BOARD_1], [11, BOARD_2]])
    // Against its own run, 10% faster is the code's speed changing: the runs start again.
    expect(record(10, BOARD_2).message).toContain('improvement: the 3 earlier runs are dropped')
    expect(boards()).toEqual([[10, BOARD_2]])
  })

  it('records each case\'s run with the board that timed it, in a run spread over several GPUs', () => {
    const onSecond = { ...timedCase('4096', 10), gpu: { index: 1, pciBusId: '0000:3b:00.0', uuid: BOARD_2 } }
    guardResult(benchResult('sgemm', [onSecond, timedCase('2048', 2)], H100, BOARD_1), context({ update: true }))
    const entries = readBaseline(baselineFile())!.entries
    const board = (caseName: string) => entries[keyString({ bench: 'sgemm', caseName, dtype: 'float32', gpu: H100 })]!.runs![0]!.board
    expect([board('4096'), board('2048')]).toEqual([BOARD_2, BOARD_1])
  })

  it('update mode reports the change against the previous baseline and keeps other entries', () => {
    guardResult(benchResult('sgemm', [timedCase('4096', 10), timedCase('2048', 2)]), context({ update: true }))
    const again = guardResult(benchResult('sgemm', [timedCase('4096', 8)]), context({ update: true }))
    const v = again.cases[0]!.verdict!
    expect(v.change).toBeCloseTo(0.25, 12)
    expect(v.message).toContain('(was 10.0, +25.0%; improvement: the 1 earlier run is dropped)')
    const entries = readBaseline(baselineFile())!.entries
    expect(Object.keys(entries)).toHaveLength(2)
    expect(entries[keyString({ bench: 'sgemm', caseName: '4096', dtype: 'float32', gpu: H100 })]!.tflops).toBeCloseTo(12.5, 12)
  })

  it('an old baseline file (no runs) is read, judged, and replaced by one with runs on -u', () => {
    const key = keyString({ bench: 'sgemm', caseName: '4096', dtype: 'float32', gpu: H100 })
    fs.mkdirSync(path.dirname(baselineFile()), { recursive: true })
    const old = { version: 1, entries: { [key]: { tflops: 10, runtimeMs: 10, cv: 0.005, gpu: H100, measuredAt: '2025-06-01T00:00:00.000Z' } } }
    fs.writeFileSync(baselineFile(), JSON.stringify(old, null, 2))
    const slower = guardResult(benchResult('sgemm', [timedCase('4096', 12.5)]), context()).cases[0]!.verdict!
    expect(slower).toMatchObject({ kind: 'regression', fails: true })
    expect(slower.message).toContain('re-record it with `vitest bench -u`')
    const recorded = guardResult(benchResult('sgemm', [timedCase('4096', 10)]), context({ update: true })).cases[0]!.verdict!
    expect(recorded.message).toContain('the previous entry kept no runs, so they start again with this one')
    expect(readBaseline(baselineFile())!.entries[key]!.runs).toHaveLength(1)
  })

  it('a slower run is a failing regression whose message names the case, the interval, the tolerance and the spread', () => {
    guardResult(benchResult('sgemm', [timedCase('4096', 10, 0)]), context({ update: true }))
    // 12.5 ms → 8 TFLOPS, -20%.
    const judged = guardResult(benchResult('sgemm', [timedCase('4096', 12.5, 0.004)]), context())
    const v = judged.cases[0]!.verdict!
    expect(v.kind).toBe('regression')
    expect(v.fails).toBe(true)
    expect(v.change).toBeCloseTo(-0.2, 12)
    expect(v.message).toMatch(
      /^regression: slower than baseline by 20\.0% \[18\.9%, 21\.1%\] \(tolerance 2\.0%; between-run spread 0\.5% assumed, not measured from 1 run \(`vitest bench -u` again records more\); 95% interval; 8\.00 TFLOPS vs 10\.0 in the baseline\)$/,
    )
    const message = failureMessage(judged)!
    expect(message).toContain(`sgemm (matrix-multiplication, float32):\n✗ case '4096': regression: slower than baseline by 20.0%`)
    expect(message).toContain(`baseline: ${baselineFile()}`)
    expect(message).toContain('vitest bench -u')
  })

  it('uses the configured tolerance, failOnImprovement and failOnInconclusive', () => {
    guardResult(benchResult('sgemm', [timedCase('4096', 10, 0)]), context({ update: true }))
    const loose = resolveBaselineSettings({ ...TIGHT, tolerance: 0.25 })
    expect(guardResult(benchResult('sgemm', [timedCase('4096', 12.5, 0)]), context({ settings: loose })).cases[0]!.verdict!.kind).toBe('unchanged')
    const strict = resolveBaselineSettings({ ...TIGHT, failOnImprovement: true })
    const faster = guardResult(benchResult('sgemm', [timedCase('4096', 8, 0)]), context({ settings: strict })).cases[0]!.verdict!
    expect(faster).toMatchObject({ kind: 'improvement', fails: true })
    const near = (settings = resolveBaselineSettings(TIGHT)) => guardResult(benchResult('sgemm', [timedCase('4096', 10.15)]), context({ settings }))
    expect(near().cases[0]!.verdict).toMatchObject({ kind: 'inconclusive', fails: false })
    expect(failureMessage(near())).toBeUndefined()
    const judged = near(resolveBaselineSettings({ ...TIGHT, failOnInconclusive: true }))
    expect(judged.cases[0]!.verdict).toMatchObject({ kind: 'inconclusive', fails: true })
    expect(failureMessage(judged)).toContain('fails because failOnInconclusive is set')
  })

  it('update mode does not judge regressions', () => {
    guardResult(benchResult('sgemm', [timedCase('4096', 10)]), context({ update: true }))
    const judged = guardResult(benchResult('sgemm', [timedCase('4096', 20)]), context({ update: true }))
    expect(judged.cases[0]!.verdict).toMatchObject({ kind: 'updated', fails: false })
    expect(failureMessage(judged)).toBeUndefined()
  })

  it('floors fail the case, with or without a baseline, in update mode too', () => {
    const floors = { minTflops: 12, maxRuntimeMs: 20, minSolPercent: 20 }
    for (const update of [false, true]) {
      const judged = guardResult(benchResult('sgemm', [timedCase('4096', 10)]), context({ floors, update }))
      const v = judged.cases[0]!.verdict!
      expect(v.fails).toBe(false)
      // 10 TFLOPS < 12; 10 ms ≤ 20; SOL on an H100 SXM against its fp32-accurate ceiling (3×TF32: 494.5 / 3 =
      // 164.83 TFLOPS) = (1e11 / 164.83e12 s) / 10 ms = 0.6067 ms / 10 ms = 6.1% < 20.
      expect(v.floors).toEqual([
        '10.0 TFLOPS is below the floor minTflops 12',
        '6.1% of speed of light is below the floor minSolPercent 20',
      ])
      expect(failureMessage(judged)).toBe(
        'sgemm (matrix-multiplication, float32):\n' +
          "✗ case '4096': 10.0 TFLOPS is below the floor minTflops 12\n" +
          "✗ case '4096': 6.1% of speed of light is below the floor minSolPercent 20",
      )
    }
    const met = guardResult(benchResult('sgemm', [timedCase('4096', 10)]), context({ floors: { minTflops: 10, minGflops: 9000 } }))
    expect(met.cases[0]!.verdict!.floors).toEqual([])
  })

  it('a baseline from another GPU is reported, not compared, and does not fail', () => {
    guardResult(benchResult('sgemm', [timedCase('4096', 10)], A100), context({ update: true }))
    const judged = guardResult(benchResult('sgemm', [timedCase('4096', 50)], H100), context())
    const v = judged.cases[0]!.verdict!
    expect(v.kind).toBe('other-gpu')
    expect(v.fails).toBe(false)
    expect(v.change).toBeUndefined()
    expect(v.message).toContain(`measured on ${A100}`)
    expect(failureMessage(judged)).toBeUndefined()

    // Recording on the H100 keeps the A100 entry.
    guardResult(benchResult('sgemm', [timedCase('4096', 50)], H100), context({ update: true }))
    const gpus = Object.values(readBaseline(baselineFile())!.entries).map((e) => e.gpu)
    expect(gpus.sort()).toEqual([A100, H100])
  })

  it('keys are stable when benches and cases run in another order', () => {
    const a = () => benchResult('tiled', [timedCase('4096', 10), timedCase('2048', 2)])
    const b = () => benchResult('naive', [timedCase('4096', 40), timedCase('2048', 8)])
    guardResult(a(), context({ update: true }))
    guardResult(b(), context({ update: true }))
    const forward = fs.readFileSync(baselineFile(), 'utf8')

    fs.rmSync(baselineFile())
    guardResult(benchResult('naive', [timedCase('2048', 8), timedCase('4096', 40)]), context({ update: true }))
    guardResult(benchResult('tiled', [timedCase('2048', 2), timedCase('4096', 10)]), context({ update: true }))
    expect(fs.readFileSync(baselineFile(), 'utf8')).toBe(forward)

    // Reordered cases compare against their own entries (a positional key would cross 2048 and 4096 over).
    const reordered = guardResult(benchResult('tiled', [timedCase('2048', 2), timedCase('4096', 10)]), context())
    expect(reordered.cases.map((c) => [c.name, c.verdict!.kind])).toEqual([
      ['2048', 'unchanged'],
      ['4096', 'unchanged'],
    ])
  })

  it('judges only timed cases, leaves skipped and verify-mode results alone, and tracks no FLOP-less case', () => {
    const wrong: CaseResult = { ...timedCase('bad', 10), outcome: { status: 'wrong', message: 'mismatch', outputs: [] }, summary: undefined }
    const judged = guardResult(benchResult('sgemm', [wrong, timedCase('copy', 1, 0.01, 0)]), context({ update: true, floors: { maxRuntimeMs: 0.5 } }))
    expect(judged.cases[0]!.verdict).toBeUndefined()
    expect(judged.cases[1]!.verdict).toMatchObject({ kind: 'untracked', fails: false })
    expect(judged.cases[1]!.verdict!.floors).toEqual(['runtime 1.000 ms is above the ceiling maxRuntimeMs 0.5'])
    expect(judged.baseline!.written).toBe(false)
    expect(fs.existsSync(baselineFile())).toBe(false)

    const verify = { ...benchResult('sgemm', [timedCase('4096', 10)]), mode: 'verify' as const }
    expect(guardResult(verify, context())).toBe(verify)
    const skipped = { ...benchResult('sgemm', []), device: undefined, skipped: 'no GPU' }
    expect(guardResult(skipped, context())).toBe(skipped)
  })

  it('honours the dir setting and throws on a malformed baseline file', () => {
    const settings = resolveBaselineSettings({ dir: 'perf/baselines' })
    const judged = guardResult(benchResult('sgemm', [timedCase('4096', 10)]), context({ settings, update: true }))
    expect(judged.baseline!.file).toBe(path.join(root, 'perf', 'baselines', 'bench__gemm.bench.ts.json'))
    fs.writeFileSync(judged.baseline!.file, '<<<<<<< HEAD\n')
    expect(() => guardResult(benchResult('sgemm', [timedCase('4096', 10)]), context({ settings }))).toThrow(/malformed baseline file .*not valid JSON/)
  })
})

describe('settings and floors', () => {
  it('resolveBaselineSettings fills the defaults and rejects bad options', () => {
    expect(resolveBaselineSettings()).toEqual({
      tolerance: 0.01,
      confidence: 0.95,
      runSpread: 0.01,
      boardSpread: 0.01,
      failOnImprovement: false,
      failOnInconclusive: false,
      dir: '__kernelbench__',
      keepRuns: 5,
    })
    expect(() => resolveBaselineSettings({ tolerance: -1 })).toThrow(/baseline option tolerance/)
    expect(() => resolveBaselineSettings({ confidence: 1 })).toThrow(/baseline option confidence/)
    expect(() => resolveBaselineSettings({ keepRuns: 0 })).toThrow(/baseline option keepRuns must be an integer >= 1/)
    expect(() => resolveBaselineSettings({ failOnInconclusive: 'yes' } as never)).toThrow(/failOnInconclusive must be a boolean/)
    expect(() => resolveBaselineSettings({ tolerence: 0.1 } as never)).toThrow(/unknown baseline option 'tolerence'/)
    expect(() => resolveBaselineSettings({ noiseFactor: 3 } as never)).toThrow(/baseline option 'noiseFactor' is gone: .*remove it/)
  })

  it('resolveSpec separates the guard rules from measurement options and checks them', () => {
    const settings = { devices: [0], cacheDir: root, measure: { targetCv: 0.03 } }
    const spec = { problem: vectorAddition, solution: 'x.cu' }
    const resolved = resolveSpec({ ...spec, minTflops: 5, maxRuntimeMs: 2, minGflops: undefined, minTimeMs: 7 }, settings, 'kernelBench')
    expect(resolved.guard).toEqual({ floors: { minTflops: 5, maxRuntimeMs: 2 }, allowAboveRoofline: false })
    expect(resolved.options).toMatchObject({ targetCv: 0.03, minTimeMs: 7 })
    expect(resolveSpec(spec, { ...settings, allowAboveRoofline: true }, 'kernelBench').guard.allowAboveRoofline).toBe(true)
    expect(resolveSpec({ ...spec, allowAboveRoofline: false }, { ...settings, allowAboveRoofline: true }, 'kernelBench').guard.allowAboveRoofline).toBe(false)
    expect(() => resolveSpec({ ...spec, minTflops: -1 }, settings, 'kernelBench')).toThrow(/floor minTflops/)
    expect(() => resolveSpec({ ...spec, minSolPercent: '50' as never }, settings, 'kernelBench')).toThrow(/floor minSolPercent/)
    expect(() => resolveSpec({ ...spec, allowAboveRoofline: 'yes' as never }, settings, 'kernelBench')).toThrow(/allowAboveRoofline must be true or false/)
  })
})

describe('failureMessage and the table', () => {
  it('failureMessage lists wrong answers and failing verdicts as one mechanism', () => {
    const wrong: CaseResult = { ...timedCase('bad', 10), outcome: { status: 'wrong', message: 'C[0] = 1, expected 2', outputs: [] } }
    const slow: CaseResult = {
      ...timedCase('4096', 12.5),
      verdict: { kind: 'regression', change: -0.2, message: 'regression: 8.00 TFLOPS vs baseline 10.0 (-20.0%), …', fails: true, floors: [] },
    }
    const fine: CaseResult = { ...timedCase('2048', 2), verdict: { kind: 'unchanged', change: 0, message: 'unchanged', fails: false, floors: [] } }
    const result = { ...benchResult('sgemm', [wrong, slow, fine]), baseline: { file: '/p/__kernelbench__/x.json', written: false } }
    expect(failureMessage(result)).toBe(
      'sgemm (matrix-multiplication, float32):\n' +
        "✗ case 'bad': C[0] = 1, expected 2\n" +
        "✗ case '4096': regression: 8.00 TFLOPS vs baseline 10.0 (-20.0%), …\n" +
        '  baseline: /p/__kernelbench__/x.json (if the change is intended, update it with `vitest bench -u`)',
    )
  })

  it("the table gets a 'vs baseline' column only when cases were judged", () => {
    const plain = stripVTControlCharacters(renderKernelResult(benchResult('sgemm', [timedCase('4096', 10)])))
    expect(plain).not.toContain('vs baseline')

    guardResult(benchResult('sgemm', [timedCase('1024', 20, 0)], A100), context({ update: true }))
    guardResult(benchResult('sgemm', [timedCase('4096', 10, 0), timedCase('2048', 2, 0)]), context({ update: true }))
    const judged = guardResult(
      benchResult('sgemm', [timedCase('4096', 12.5, 0), timedCase('2048', 1.6, 0), timedCase('512', 20), timedCase('1024', 2)]),
      context({ floors: { minTflops: 9 } }),
    )
    const lines = stripVTControlCharacters(renderKernelResult(judged)).split('\n')
    expect(lines[1]).toMatch(/vs baseline$/)
    const cell = (name: string) => lines.find((l) => l.trimStart().startsWith(`${name} `))!
    expect(cell('4096')).toMatch(/-20\.0% \[-21\.1%, -18\.9%\] regression ✗ floor$/)
    expect(cell('2048')).toMatch(/\+25\.0% \[\+2\d\.\d%, \+2\d\.\d%\] improvement$/)
    expect(cell('512')).toMatch(/ new ✗ floor$/)
    expect(cell('1024')).toMatch(/ other GPU$/)
  })
})

describe('the roofline check', () => {
  // SOL on an H100 SXM against its fp32-accurate ceiling (3×TF32: 494.5 / 3 = 164.83 TFLOPS): floor = 1e11 / 164.83e12 s
  // = 0.6067 ms, so a 0.5 ms median (200 TFLOPS) is 121% of the roofline.
  const impossible = () => benchResult('sgemm', [timedCase('4096', 0.5), timedCase('2048', 10)])

  it('passes an fp32 case at 100 TFLOPS, above the CUDA cores\' 67 but within 3×TF32 (SOL 60.7%)', () => {
    const judged = guardResult(benchResult('sgemm', [timedCase('4096', 1)]), context()) // 1e11 FLOP in 1 ms
    expect(judged.cases[0]!.verdict).toMatchObject({ kind: 'no-baseline', fails: false })
    expect(failureMessage(judged)).toBeUndefined()
  })

  it('fails a case faster than the datasheet roofline, with the figures, in update mode too, and records no baseline for it', () => {
    for (const update of [false, true]) {
      const judged = guardResult(impossible(), context({ update }))
      expect(judged.cases[0]!.verdict).toMatchObject({ kind: 'above-roofline', fails: true })
      expect(failureMessage(judged)).toBe(
        'sgemm (matrix-multiplication, float32):\n' +
          "✗ case '4096': faster than this GPU can go: the measurement missed work or the solution skipped it " +
          "(SOL 121.3% of the datasheet roofline, its outputs' writes left in the L2: floor 606.7 µs, measured median 500.0 µs; if this GPU's peak entry is wrong, set allowAboveRoofline)",
      )
    }
    const recorded = readBaseline(baselineFile())!
    expect(Object.keys(recorded.entries)).toEqual([keyString({ bench: 'sgemm', caseName: '2048', dtype: 'float32', gpu: H100 })])
  })

  it('the table marks the case, says why under it, and omits the geometric mean', () => {
    const lines = stripVTControlCharacters(renderKernelResult(guardResult(impossible(), context()))).split('\n')
    expect(lines.find((l) => l.trimStart().startsWith('4096 '))).toMatch(/121% ⚠ .* ✗ SOL > 100%$/)
    expect(lines.slice(-2)).toEqual([
      '  no geometric mean: 1 case failed',
      '  ✗ SOL above 100% fails the case: faster than this GPU can go, so the measurement missed work or the solution skipped it',
    ])
  })

  it('allowAboveRoofline (spec or plugin) keeps only the warning and the baseline comparison', () => {
    const judged = guardResult(impossible(), context({ allowAboveRoofline: true }))
    expect(judged.cases[0]!.verdict).toMatchObject({ kind: 'no-baseline', fails: false })
    expect(failureMessage(judged)).toBeUndefined()
    const text = stripVTControlCharacters(renderKernelResult(judged))
    expect(text).toContain('geometric mean over 2 cases')
    expect(text).toContain(SOL_WARNING)
  })

  // A vector add of 2^22 floats on an H100 SXM (3350 GB/s, L2 50 MiB): 48 MiB moved, 16 MiB of it the output. At
  // 13.6 µs (cupti timing, measured) that is 110% of the roofline with every byte through DRAM, 74% with the output's
  // writes left in the L2.
  const vectorAdd = (medianMs: number, outputElements: number, bytes = 3 * 4 * 2 ** 22): CaseResult => {
    const c = timedCase('n = 2^22', medianMs, 0.005, 2 ** 22)
    const outcome = c.outcome.status === 'ok' ? { ...c.outcome, outputs: [{ name: 'd_output', elements: outputElements, comparison: { badCount: 0, nanCount: 0, maxAbsError: 0 } }] } : c.outcome
    return { ...c, bytes, outcome }
  }

  it("passes a memory-bound case above the DRAM roofline when its outputs' writes fit in the L2, with the warning", () => {
    const judged = guardResult(benchResult('add', [vectorAdd(0.0136, 2 ** 22)]), context())
    expect(judged.cases[0]!.verdict).toMatchObject({ kind: 'no-baseline', fails: false })
    expect(stripVTControlCharacters(renderKernelResult(judged))).toContain(SOL_WARNING)
  })

  it('fails it when even the inputs alone could not have come from DRAM that fast', () => {
    // 32 MiB of inputs at 3350 GB/s take 10.0 µs at least: 9 µs is 111% of that floor.
    const judged = guardResult(benchResult('add', [vectorAdd(0.009, 2 ** 22)]), context())
    expect(judged.cases[0]!.verdict).toMatchObject({ kind: 'above-roofline', fails: true })
    expect(failureMessage(judged)).toMatch(/SOL 111\.3% of the datasheet roofline, its outputs' writes left in the L2: floor 10\.0 µs, measured median 9\.00 µs/)
  })

  it('leaves no more than the L2 to hold back, and nothing where no output was verified', () => {
    // 2^28 floats: 3 GiB moved, a 1 GiB output; 110% of the full roofline is still 108% with 50 MiB held back.
    const big = 3 * 4 * 2 ** 28
    const fullFloorMs = (big / 3350e9) * 1e3
    expect(guardResult(benchResult('add', [vectorAdd(fullFloorMs / 1.1, 2 ** 28, big)]), context()).cases[0]!.verdict?.kind).toBe('above-roofline')
    expect(guardResult(benchResult('add', [vectorAdd(0.0136, 0)]), context()).cases[0]!.verdict?.kind).toBe('above-roofline')
  })
})

