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
import { renderKernelResult } from '../../src/report/kernel-table.js'
import { failureMessage, type CaseResult, type KernelBenchResult } from '../../src/shared/results.js'
import { vectorAddition } from '../../problems/index.js'
import { makeScratch, removeScratch } from '../helpers/scratch.js'

const H100 = 'NVIDIA H100 80GB HBM3'
const A100 = 'NVIDIA A100-SXM4-80GB'
const FLOPS = 1e11 // at a 10 ms median: 10 TFLOPS

function device(name = H100): DeviceReport {
  return {
    index: 0,
    name,
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

/** A timed case whose median is `medianMs` (so FLOPS / medianMs TFLOPS) with coefficient of variation `cv`. */
function timedCase(name: string, medianMs: number, cv = 0.005, flops = FLOPS): CaseResult {
  return {
    name,
    params: { n: 4096 },
    flops,
    bytes: 2e8,
    outcome: {
      status: 'ok',
      outputs: [],
      verificationSkipped: false,
      timing: { samplesMs: [medianMs], droppedThrottled: 0, meanSmClockMHz: 1980, maxSmClockMHz: 1980, stopReason: 'target-cv', wallMs: 100, callsPerSample: 1, checkedCalls: 3, droppedInterference: 0 },
    },
    summary: { n: 50, mean: medianMs, median: medianMs, min: medianMs, max: medianMs, stdev: medianMs * cv, cv },
  }
}

function benchResult(bench: string, cases: CaseResult[], gpu = H100): KernelBenchResult {
  return {
    version: 1,
    bench,
    problem: 'matrix-multiplication',
    solution: 'sgemm.cu',
    dtype: 'float32',
    mode: 'bench',
    device: device(gpu),
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
  return { benchFile, root, rules: { floors, allowAboveRoofline }, settings: resolveBaselineSettings(), update: false, now: NOW, ...overrides }
}

beforeEach(() => {
  root = makeScratch('kb-guard-')
  benchFile = path.join(root, 'bench', 'gemm.bench.ts')
})
afterEach(() => removeScratch(root))

const baselineFile = () => path.join(root, '__kernelbench__', 'bench__gemm.bench.ts.json')

describe('guardResult', () => {
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

  it('update mode writes a baseline that a normal run reads back as same', () => {
    const first = guardResult(benchResult('sgemm', [timedCase('4096', 10, 0.004), timedCase('2048', 2, 0.01)]), context({ update: true }))
    expect(first.baseline).toEqual({ file: baselineFile(), written: true })
    expect(first.cases.map((c) => c.verdict!.kind)).toEqual(['updated', 'updated'])
    expect(first.cases[0]!.verdict!.message).toContain('baseline recorded: 10.0 TFLOPS ±0.4% on NVIDIA H100')

    const stored = readBaseline(baselineFile())!
    const key = keyString({ bench: 'sgemm', caseName: '4096', dtype: 'float32', gpu: H100 })
    expect(stored.entries[key]).toEqual({ tflops: 10, runtimeMs: 10, cv: 0.004, gpu: H100, measuredAt: NOW.toISOString() })
    expect(Object.keys(stored.entries)).toHaveLength(2)

    // A slightly different second run, well within the 5% tolerance.
    const second = guardResult(benchResult('sgemm', [timedCase('4096', 10.1, 0.004), timedCase('2048', 2, 0.01)]), context())
    expect(second.cases.map((c) => c.verdict!.kind)).toEqual(['same', 'same'])
    expect(second.cases[0]!.verdict!.change).toBeCloseTo(10 / 10.1 - 1, 12)
    expect(second.baseline!.written).toBe(false)
    expect(failureMessage(second)).toBeUndefined()
  })

  it('update mode reports the change against the previous baseline and keeps other entries', () => {
    guardResult(benchResult('sgemm', [timedCase('4096', 10), timedCase('2048', 2)]), context({ update: true }))
    const again = guardResult(benchResult('sgemm', [timedCase('4096', 8)]), context({ update: true }))
    const v = again.cases[0]!.verdict!
    expect(v.change).toBeCloseTo(0.25, 12)
    expect(v.message).toContain('(was 10.0, +25.0%)')
    const entries = readBaseline(baselineFile())!.entries
    expect(Object.keys(entries)).toHaveLength(2)
    expect(entries[keyString({ bench: 'sgemm', caseName: '4096', dtype: 'float32', gpu: H100 })]!.tflops).toBeCloseTo(12.5, 12)
  })

  it('a slower run is a failing regression whose message names the case, values, noise and rule', () => {
    guardResult(benchResult('sgemm', [timedCase('4096', 10, 0)]), context({ update: true }))
    // 12.5 ms → 8 TFLOPS, -20%; cv 1.2% → bound max(5%, 3 × 1.2%) = 5%.
    const judged = guardResult(benchResult('sgemm', [timedCase('4096', 12.5, 0.012)]), context())
    const v = judged.cases[0]!.verdict!
    expect(v.kind).toBe('regression')
    expect(v.fails).toBe(true)
    expect(v.change).toBeCloseTo(-0.2, 12)
    expect(v.message).toBe(
      'regression: 8.00 TFLOPS vs baseline 10.0 (-20.0%), beyond the bound 5.0% = max(tolerance 5.0%, 3 × noise 1.2%)',
    )
    const message = failureMessage(judged)!
    expect(message).toContain(`sgemm (matrix-multiplication, float32):\n✗ case '4096': regression: 8.00 TFLOPS vs baseline 10.0`)
    expect(message).toContain(`baseline: ${baselineFile()}`)
    expect(message).toContain('vitest bench -u')
  })

  it('uses the configured tolerance and noise factor', () => {
    guardResult(benchResult('sgemm', [timedCase('4096', 10, 0)]), context({ update: true }))
    const loose = resolveBaselineSettings({ tolerance: 0.25 })
    expect(guardResult(benchResult('sgemm', [timedCase('4096', 12.5, 0)]), context({ settings: loose })).cases[0]!.verdict!.kind).toBe('same')
    const strict = resolveBaselineSettings({ failOnImprovement: true })
    const faster = guardResult(benchResult('sgemm', [timedCase('4096', 8, 0)]), context({ settings: strict })).cases[0]!.verdict!
    expect(faster).toMatchObject({ kind: 'improvement', fails: true })
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
      // 10 TFLOPS < 12; 10 ms ≤ 20; SOL on an H100 (67 TFLOPS FP32) = (1e11 / 67e12 s) / 10 ms = 14.9% < 20.
      expect(v.floors).toEqual([
        '10.0 TFLOPS is below the floor minTflops 12',
        '14.9% of speed of light is below the floor minSolPercent 20',
      ])
      expect(failureMessage(judged)).toBe(
        'sgemm (matrix-multiplication, float32):\n' +
          "✗ case '4096': 10.0 TFLOPS is below the floor minTflops 12\n" +
          "✗ case '4096': 14.9% of speed of light is below the floor minSolPercent 20",
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
      ['2048', 'same'],
      ['4096', 'same'],
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
    expect(resolveBaselineSettings()).toEqual({ tolerance: 0.05, noiseFactor: 3, failOnImprovement: false, dir: '__kernelbench__' })
    expect(() => resolveBaselineSettings({ tolerance: -1 })).toThrow(/tolerance/)
    expect(() => resolveBaselineSettings({ noiseFactor: Number.NaN })).toThrow(/noiseFactor/)
    expect(() => resolveBaselineSettings({ tolerence: 0.1 } as never)).toThrow(/unknown baseline option 'tolerence'/)
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
    const fine: CaseResult = { ...timedCase('2048', 2), verdict: { kind: 'same', change: 0, message: 'same', fails: false, floors: [] } }
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
    expect(cell('4096')).toMatch(/-20\.0% ✗ floor$/)
    expect(cell('2048')).toMatch(/\+25\.0%$/)
    expect(cell('512')).toMatch(/ new ✗ floor$/)
    expect(cell('1024')).toMatch(/ other GPU$/)
  })
})

describe('the roofline check', () => {
  // SOL on an H100 (67 TFLOPS FP32): floor = 1e11 / 67e12 s = 1.493 ms, so a 1 ms median is 149% of the roofline.
  const impossible = () => benchResult('sgemm', [timedCase('4096', 1), timedCase('2048', 10)])

  it('fails a case faster than the datasheet roofline, with the figures, in update mode too, and records no baseline for it', () => {
    for (const update of [false, true]) {
      const judged = guardResult(impossible(), context({ update }))
      expect(judged.cases[0]!.verdict).toMatchObject({ kind: 'above-roofline', fails: true })
      expect(failureMessage(judged)).toBe(
        'sgemm (matrix-multiplication, float32):\n' +
          "✗ case '4096': faster than this GPU can go: the measurement missed work or the solution skipped it " +
          '(SOL 149.3% of the datasheet roofline: floor 1.493 ms, measured median 1.000 ms; if this GPU\'s peak entry is wrong, set allowAboveRoofline)',
      )
    }
    const recorded = readBaseline(baselineFile())!
    expect(Object.keys(recorded.entries)).toEqual([keyString({ bench: 'sgemm', caseName: '2048', dtype: 'float32', gpu: H100 })])
  })

  it('the table marks the case, says why under it, and omits the geometric mean', () => {
    const lines = stripVTControlCharacters(renderKernelResult(guardResult(impossible(), context()))).split('\n')
    expect(lines.find((l) => l.trimStart().startsWith('4096 '))).toMatch(/149% ⚠ .* ✗ SOL > 100%$/)
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
    expect(text).toContain('⚠ SOL above 100%: faster than the hardware allows, so the measurement missed work or hit a warm cache (accepted: allowAboveRoofline is set)')
  })
})

