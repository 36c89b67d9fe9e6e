// The verdict of ncu's SOLBottleneck rule and the duration-weighted aggregation, on counter sets recorded on an H100
// (NVIDIA H100 80GB HBM3, driver 580.159.04, 2026-11-24): Nsight Compute 2025.3.1's own figures
// (`ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats`) for three kernels (the
// example vector add at 2^25 floats, the tiled sgemm at 4096³, one warp of dependent FMAs), and the theoretical
// occupancy ncu computed for them.
import { stripVTControlCharacters } from 'node:util'
import { describe, expect, it } from 'vitest'
import { countersRecord } from '../../src/report/counters.js'
import { buildResultsFile } from '../../src/report/json.js'
import { renderKernelResult } from '../../src/report/kernel-table.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import type { TimingResult } from '../../src/shared/messages.js'
import { RESULT_SCHEMA_VERSION, type CaseResult, type KernelBenchResult } from '../../src/shared/results.js'
import { DEFAULT_MEASURE_OPTIONS } from '../../src/spec/options.js'
import { COUNTER_METRICS, type CaseCountersOutcome, type CounterSet, type KernelCounters, type SmLimits } from '../../src/shared/counters.js'
import { aggregateCounters, boundVerdict, SOL_THRESHOLDS } from '../../src/report/bound.js'
import { theoreticalOccupancy } from '../../src/report/occupancy.js'

const H100: SmLimits = {
  computeCapability: '9.0',
  multiProcessors: 132,
  warpSize: 32,
  maxThreadsPerBlock: 1024,
  maxThreadsPerSm: 2048,
  maxBlocksPerSm: 32,
  registersPerSm: 65536,
  registersPerBlock: 65536,
  sharedBytesPerSm: 233472,
  reservedSharedBytesPerBlock: 1024,
}

/** ncu's figures, in COUNTER_METRICS' order. */
function counters(values: readonly number[]): CounterSet {
  return Object.fromEntries(COUNTER_METRICS.map((name, i) => [name, values[i]!])) as CounterSet
}

const launch = (grid: number, block: number, registersPerThread: number, staticSharedBytes = 0) => ({
  grid: [grid, 1, 1] as const,
  block: [block, 1, 1] as const,
  registersPerThread,
  staticSharedBytes,
  dynamicSharedBytes: 0,
})

const VECTOR_ADD: KernelCounters = {
  name: 'vectorAdd4(float4 const*, float4 const*, float4*, unsigned long)',
  ...launch(32768, 256, 20),
  metrics: counters([127008, 8.11, 90.62, 90.62, 90.62, 0, 34.55, 81.94, 15.86, 82.19, 2.81, 4.82, 3.22, 0]),
}
const SGEMM_TILED: KernelCounters = {
  name: 'void gemm::sgemm::tiledKernel<gemm::RowMajorB, gemm::StoreAccumulator>(…)',
  ...launch(1024, 256, 104, 8192),
  metrics: counters([8247456, 38.43, 42.94, 1.44, 1.44, 2.97, 82.53, 24.29, 42.94, 5.94, 26.54, 15.36, 9.78, 0.78]),
}
const DEPENDENT_CHAIN: KernelCounters = {
  name: 'dependentChain(float*, int)',
  ...launch(1, 32, 16),
  metrics: counters([149184, 0.05, 0.24, 0, 0, 0, 109.7, 1.56, 0, 0.24, 5.62, 1.41, 0, 0]),
}

/** A set with the compute and memory figures given, the memory units and pipes as named. */
function solSet(sm: number, memory: number, units: Partial<Record<'dram' | 'l1' | 'l2' | 'fma' | 'lsu', number>> = {}): CounterSet {
  const { dram = 0, l1 = 0, l2 = 0, fma = 0, lsu = 0 } = units
  return counters([1000, sm, memory, dram, dram, 0, 0, 50, l1, l2, fma, 0, lsu, 0])
}

describe('theoretical occupancy (CUDA occupancy rules; ncu on the H100 in brackets)', () => {
  it('vector add, 256 threads and 20 registers: 8 blocks by warps, 10 by registers, 100% (ncu: 8, 10, 100%, 31.03 waves)', () => {
    const o = theoreticalOccupancy(VECTOR_ADD, H100)
    expect(o).toMatchObject({ pct: 100, blocksPerSm: 8, limiter: 'warps' })
    expect(o.limits).toMatchObject({ warps: 8, registers: 10, blocks: 32 })
    expect(o.waves).toBeCloseTo(31.03, 2)
  })

  it('tiled sgemm, 104 registers: 2 blocks by registers, 25% (ncu: 2, 25%, 3.88 waves)', () => {
    const o = theoreticalOccupancy(SGEMM_TILED, H100)
    expect(o).toMatchObject({ pct: 25, blocksPerSm: 2, limiter: 'registers' })
    expect(o.waves).toBeCloseTo(3.88, 2)
  })

  it('one warp per block: 32 blocks by block slots, 50% (ncu: 32, 50%)', () => {
    expect(theoreticalOccupancy(DEPENDENT_CHAIN, H100)).toMatchObject({ pct: 50, blocksPerSm: 32, limiter: 'blocks' })
  })

  it('shared memory: 48 KiB a block plus the 1 KiB reserved, rounded to 128 B, leaves 4 blocks of 228 KiB', () => {
    const o = theoreticalOccupancy({ ...launch(1000, 128, 32), dynamicSharedBytes: 48 * 1024, name: 'k' }, H100)
    expect(o).toMatchObject({ blocksPerSm: 4, limiter: 'shared memory', pct: 25 })
  })

  it('a block the SM cannot hold reads 0%', () => {
    expect(theoreticalOccupancy({ ...launch(1, 1024, 255), name: 'k' }, H100)).toMatchObject({ pct: 0, limiter: 'registers' })
    expect(theoreticalOccupancy({ ...launch(1, 2048, 16), name: 'k' }, H100)).toMatchObject({ pct: 0, limiter: 'warps' })
  })
})

describe("ncu's SOLBottleneck verdict", () => {
  it('thresholds are the rule\'s own: balanced 10, latency 60, bound 80 points, one wave', () => {
    expect(SOL_THRESHOLDS).toEqual({ balanced: 10, latency: 60, bound: 80, waves: 1 })
  })

  it('vector add of 2^25 floats: memory-bound by DRAM (High Throughput)', () => {
    expect(boundVerdict(VECTOR_ADD.metrics, 31.03)).toEqual({
      bound: 'memory',
      rule: 'High Throughput',
      unit: 'DRAM',
      text: 'memory-bound (DRAM 91%)',
    })
  })

  it('tiled sgemm at 4096³: both below 60%, a latency issue as ncu reads it (ncu: "Latency Issue")', () => {
    expect(boundVerdict(SGEMM_TILED.metrics, 3.88)).toEqual({ bound: 'latency', rule: 'Latency Issue', text: 'latency-bound (SM 38%, memory 43%)' })
  })

  it('one warp: a grid smaller than a wave is "Small Grid"; without the waves, a latency issue', () => {
    expect(boundVerdict(DEPENDENT_CHAIN.metrics, 1 / (32 * 132))).toMatchObject({ bound: 'latency', rule: 'Small Grid' })
    expect(boundVerdict(DEPENDENT_CHAIN.metrics).rule).toBe('Latency Issue')
  })

  it('at or above 80% the higher side is the bound, compute on a tie; the compute unit is the busiest pipe', () => {
    expect(boundVerdict(solSet(85, 40, { fma: 90, lsu: 20 }))).toEqual({ bound: 'compute', rule: 'High Throughput', unit: 'FMA', text: 'compute-bound (FMA pipe 90%)' })
    expect(boundVerdict(solSet(80, 80, { fma: 70 })).bound).toBe('compute')
    expect(boundVerdict(solSet(79.9, 80, { l2: 80, dram: 30 }))).toMatchObject({ bound: 'memory', unit: 'L2' })
  })

  it('between 60 and 80%: 10 points apart names the heavier side, closer is balanced', () => {
    expect(boundVerdict(solSet(50, 70, { l1: 70, l2: 40 }))).toEqual({ bound: 'memory', rule: 'High Memory Throughput', unit: 'L1', text: 'memory-bound (L1 70%)' })
    expect(boundVerdict(solSet(72, 62, { lsu: 65, fma: 10 }))).toMatchObject({ bound: 'compute', rule: 'High Compute Throughput', unit: 'LSU' })
    expect(boundVerdict(solSet(65, 70))).toEqual({ bound: 'balanced', rule: 'Balanced Throughput', text: 'balanced (SM 65%, memory 70%)' })
    expect(boundVerdict(solSet(59.9, 59.9)).bound).toBe('latency')
    expect(boundVerdict(solSet(60, 20)).rule).toBe('High Compute Throughput')
  })
})

describe('duration-weighted aggregation', () => {
  it('one kernel: its own counters', () => {
    expect(aggregateCounters([VECTOR_ADD]).metrics).toEqual(VECTOR_ADD.metrics)
  })

  it('weights each metric by the kernels\' gpu__time_duration.sum and sums the durations', () => {
    const both = aggregateCounters([VECTOR_ADD, SGEMM_TILED], H100)
    const w = 127008 / (127008 + 8247456)
    expect(both.kernels).toBe(2)
    expect(both.metrics['gpu__time_duration.sum']).toBe(127008 + 8247456)
    expect(both.metrics['dram__throughput.avg.pct_of_peak_sustained_elapsed']).toBeCloseTo(w * 90.62 + (1 - w) * 1.44, 10)
    expect(both.theoreticalOccupancyPct).toBeCloseTo(w * 100 + (1 - w) * 25, 10)
    expect(both.waves).toBeCloseTo(31.03, 2)
    expect(boundVerdict(both.metrics, both.waves).rule).toBe('Latency Issue')
  })

  it('kernels that register no time count alike; no kernels is an error', () => {
    const zero = (k: KernelCounters) => ({ ...k, metrics: { ...k.metrics, 'gpu__time_duration.sum': 0 } })
    expect(aggregateCounters([zero(VECTOR_ADD), zero(SGEMM_TILED)]).metrics['sm__throughput.avg.pct_of_peak_sustained_elapsed']).toBeCloseTo((8.11 + 38.43) / 2, 10)
    expect(() => aggregateCounters([])).toThrow(/no kernels/)
  })
})

describe('counters in the reports', () => {
  const device = { index: 0, name: 'NVIDIA H100 80GB HBM3', uuid: 'GPU-00000000-0000-0000-0000-000000000000', pciBusId: '00000000:19:00.0', computeCapability: '9.0', multiProcessors: 132, l2CacheBytes: 50 * 2 ** 20, totalMemoryBytes: 85e9, maxSmClockMHz: 1980, memoryClockMHz: 2619, memoryBusWidthBits: 5120, runtimeVersion: '13.0', driverVersion: '13.0', startSmClockMHz: 1980 }
  const n = 2 ** 25
  const timing: TimingResult = { samplesMs: [], droppedThrottled: 0, droppedInterference: 0, meanSmClockMHz: 1980, maxSmClockMHz: 1980, stopReason: 'target-cv', wallMs: 60, callsPerSample: 1, checkedCalls: 2 }
  const timedCase = (name: string, counters?: CaseCountersOutcome): CaseResult => ({
    name,
    params: { n },
    flops: n,
    bytes: 12 * n,
    outcome: { status: 'ok', outputs: [], timing, verificationSkipped: false, ...(counters && { counters }) },
    summary: { n: 50, mean: 0.127, median: 0.127, min: 0.126, max: 0.13, stdev: 0.0005, cv: 0.004 },
  })
  const options = { ...DEFAULT_MEASURE_OPTIONS, counters: true }
  const names = { bench: 'vector add', problem: 'vector-addition', solution: './vector_add.cu' }
  const bench = (cases: CaseResult[]): KernelBenchResult => ({ version: RESULT_SCHEMA_VERSION, ...names, dtype: 'float32', mode: 'bench', device, arch: 'sm_90a', options, cases })
  const COUNTED: CaseCountersOutcome = { status: 'ok', kernels: [VECTOR_ADD], passes: 9, limits: H100, costMs: 412 }
  const MISSING: CaseCountersOutcome = {
    status: 'unavailable',
    reason: 'the performance counters cannot be read here: only admin users may read them. The case is timed all the same; only its counters are missing.',
    costMs: 3,
  }

  it('the record: each kernel with its theoretical occupancy, the aggregate, the verdict', () => {
    const record = countersRecord(COUNTED)
    if (record.status !== 'ok') throw new Error('not counted')
    expect(record.kernels[0]!.theoreticalOccupancy).toMatchObject({ pct: 100, blocksPerSm: 8, limiter: 'warps' })
    expect(record.aggregate).toMatchObject({ kernels: 1, theoreticalOccupancyPct: 100 })
    expect(record.verdict).toEqual({ bound: 'memory', rule: 'High Throughput', unit: 'DRAM', text: 'memory-bound (DRAM 91%)' })
    expect(countersRecord(MISSING)).toEqual(MISSING)
  })

  it('the table has a bound column only where some case has counters, and says why they are missing', () => {
    const table = stripVTControlCharacters(renderKernelResult(bench([timedCase('counted', COUNTED), timedCase('refused', MISSING), timedCase('off')])))
    const [, header, counted, refused, off, , note] = table.split('\n')
    expect(header).toMatch(/SOL +bound +SM MHz/)
    expect(counted).toContain('memory-bound (DRAM 91%)')
    expect(refused).toContain('no counters (see below)')
    expect(off).toMatch(/ — +1980/)
    expect(note).toContain('no counters for refused: the performance counters cannot be read here: only admin users')
    expect(stripVTControlCharacters(renderKernelResult(bench([timedCase('off')])))).not.toContain('bound')
  })

  it('the JSON file: counters beside the case, not repeated in its outcome', () => {
    const file = buildResultsFile([{ file: 'x.bench.ts', name: 'vector add', state: 'passed', errors: [], result: bench([timedCase('counted', COUNTED), timedCase('off')]) }], { vitestKernelBench: '0', vitest: '4', node: 'v22' }, new Date(0))
    const [counted, off] = file.benches[0]!.result!.cases
    expect(counted!.counters).toMatchObject({ status: 'ok', passes: 9, verdict: { bound: 'memory', rule: 'High Throughput' } })
    expect(counted!.outcome).not.toHaveProperty('counters')
    expect(counted!.metrics).toBeDefined()
    expect(off).not.toHaveProperty('counters')
  })

  it('Markdown: the column and the note', () => {
    const md = renderMarkdown([{ file: 'x.bench.ts', name: 'vector add', state: 'passed', errors: [], result: bench([timedCase('counted', COUNTED), timedCase('refused', MISSING)]) }])
    expect(md).toContain('bound (ncu SOL)')
    expect(md).toContain('memory-bound (DRAM 91%)')
    expect(md).toContain('no counters for refused')
  })
})
