// The per-kernel table, rendered from a hand-built recorded result. Colours are stripped so the golden output is
// the same whether or not picocolors decided to colour (it decides from the terminal and the environment).
import { stripVTControlCharacters } from 'node:util'
import { describe, expect, it } from 'vitest'
import type { CaseOutcome, DeviceReport, TimingResult } from '../../src/shared/messages.js'
import type { SampleSummary } from '../../src/shared/stats.js'
import { DEFAULT_MEASURE_OPTIONS } from '../../src/spec/options.js'
import { SOL_WARNING, benchDetails, renderDeviceHeader, renderKernelResult } from '../../src/report/kernel-table.js'
import { failureMessage, RESULT_SCHEMA_VERSION, type CaseResult, type KernelBenchResult } from '../../src/shared/results.js'

const plain = (text: string) => stripVTControlCharacters(text)

const H200: DeviceReport = {
  index: 0,
  name: 'NVIDIA H200',
  uuid: 'GPU-5108da83-e7f5-1223-0143-53f8def875ed',
  pciBusId: '00000000:19:00.0',
  computeCapability: '9.0',
  multiProcessors: 132,
  l2CacheBytes: 50 * 2 ** 20,
  totalMemoryBytes: 150_121_676_800,
  maxSmClockMHz: 1980,
  memoryClockMHz: 3201,
  memoryBusWidthBits: 6144,
  runtimeVersion: '13.0',
  driverVersion: '13.0',
  startSmClockMHz: 1755,
  driverRelease: '580.95.05',
}

const N20 = 2 ** 20
const N26 = 2 ** 26

function summary(median: number, cv: number, n: number): SampleSummary {
  return { n, mean: median * 1.01, median, min: median * 0.98, max: median * 1.1, stdev: median * cv * 1.01, cv }
}

function timing(meanSmClockMHz: number, stopReason: TimingResult['stopReason'], droppedThrottled = 0): TimingResult {
  return { samplesMs: [], droppedThrottled, meanSmClockMHz, maxSmClockMHz: 1980, stopReason, wallMs: 500, callsPerSample: 1, checkedCalls: 3, droppedInterference: 0 }
}

function ok(t?: TimingResult): CaseOutcome {
  return {
    status: 'ok',
    outputs: [{ name: 'd_output', elements: N26, comparison: { badCount: 0, nanCount: 0, maxAbsError: 0 } }],
    timing: t,
    verificationSkipped: false,
  }
}

function vectorCase(n: number, outcome: CaseOutcome, s?: SampleSummary): CaseResult {
  const power = Math.log2(n)
  return { name: `n = 2^${power}`, params: { n }, flops: n, bytes: 12 * n, outcome, summary: s }
}

function result(cases: CaseResult[], overrides: Partial<KernelBenchResult> = {}): KernelBenchResult {
  return {
    version: RESULT_SCHEMA_VERSION,
    bench: 'vector add',
    problem: 'vector-addition',
    solution: './vector_add.cu',
    dtype: 'float32',
    mode: 'bench',
    device: H200,
    arch: 'sm_90a',
    options: { ...DEFAULT_MEASURE_OPTIONS },
    cases,
    ...overrides,
  }
}

const WRONG: CaseOutcome = {
  status: 'wrong',
  message: '1024 of 4194304 elements out of tolerance; first at 17: expected 0.5, got 0',
  outputs: [{ name: 'd_output', elements: 2 ** 22, comparison: { badCount: 1024, nanCount: 0, firstBad: 17, maxAbsError: 0.5 } }],
}

const FAULT: CaseOutcome = {
  status: 'error',
  errorName: 'CudaError',
  message: 'cudaErrorIllegalAddress: an illegal memory access was encountered',
  contextLost: true,
  hostExits: true,
}

// One timed case near the roofline, one short noisy case with throttled samples dropped, one wrong, one fault.
const RECORDED = result([
  vectorCase(N26, ok(timing(1975.4, 'target-cv')), summary(0.2, 0.004, 120)),
  vectorCase(N20, ok(timing(1890, 'max-time', 3)), summary(0.0066, 0.023, 200)),
  { name: 'n = 2^22', params: { n: 2 ** 22 }, flops: 2 ** 22, bytes: 12 * 2 ** 22, outcome: WRONG },
  { name: 'n = 2^23', params: { n: 2 ** 23 }, flops: 2 ** 23, bytes: 12 * 2 ** 23, outcome: FAULT },
])

describe('renderKernelResult', () => {
  it('renders timed, wrong and failed cases with throughput, roofline and a geometric mean', () => {
    // 2^26: 805,306,368 B in 0.2 ms = 4026.5 GB/s = 83.9% of 4800 GB/s, which is also the SOL (memory-bound).
    // 2^20: 12,582,912 B in 6.6 µs = 1906.5 GB/s = 39.7% of the H200's bandwidth.
    // geometric mean: sqrt(0.2 × 0.0066) ms = 36.3 µs.
    // % peak against the fp32-accurate ceiling (3×TF32: 494.5 / 3 = 164.83 TFLOPS): 335.5 GFLOPS = 0.20%,
    // 158.9 GFLOPS = 0.096%.
    expect(plain(renderKernelResult(RECORDED))).toMatchInlineSnapshot(`
      "vector add vector-addition · float32 · ./vector_add.cu
        case              median      cv    throughput  bandwidth  % peak  % bw  SOL  SM MHz         n  stop
        n = 2^26        200.0 µs  ±0.40%  335.5 GFLOPS  4027 GB/s    0.2%   84%  84%    1975       120  cv
        n = 2^20         6.60 µs   ±2.3%  158.9 GFLOPS  1907 GB/s    0.1%   40%  40%    1890  200 (-3)  max-time
        n = 2^22  ✗ wrong answer
        n = 2^23     ✗ CudaError
        no geometric mean: 2 cases failed"
    `)
  })

  it('does not repeat the problem where the bench is named after it', () => {
    const verified = [vectorCase(N20, ok())]
    const title = (bench: string) => plain(renderKernelResult({ ...result(verified, { mode: 'verify' }), bench })).split('\n')[0]
    expect(title('vector-addition')).toBe('vector-addition float32 · ./vector_add.cu')
    expect(title('vector-addition: vector_add.cu')).toBe('vector-addition: vector_add.cu float32 · ./vector_add.cu')
    // Named after another word that merely starts like the problem: the problem is still said.
    expect(title('vector-additionally')).toBe('vector-additionally vector-addition · float32 · ./vector_add.cu')
    expect(benchDetails({ bench: 'sum-dim', problem: 'sum-dim', dtype: 'float32', solution: 's.cu' })).toEqual(['float32', 's.cu'])
  })

  it('does not repeat the dtype where the bench is named with it', () => {
    expect(benchDetails({ bench: 'relu float32', problem: 'relu', dtype: 'float32', solution: 'relu_f32.cu' })).toEqual(['relu_f32.cu'])
    expect(benchDetails({ bench: 'tiled (float16)', problem: 'relu', dtype: 'float16', solution: 'r.cu' })).toEqual(['relu', 'r.cu'])
    // A dtype inside another word is not the dtype: bfloat16 does not name float16.
    expect(benchDetails({ bench: 'relu bfloat16', problem: 'relu', dtype: 'float16', solution: 'r.cu' })).toEqual(['float16', 'r.cu'])
  })

  it("lists the cases the bench's supports declined, with why, under the table", () => {
    const unsupported = [{ name: 'n = 2^30', reason: 'over 2^26' }]
    const lines = plain(renderKernelResult(result([vectorCase(N20, ok())], { mode: 'verify', unsupported }))).split('\n')
    expect(lines.at(-1)).toBe("  not supported by the solution, not run: 'n = 2^30' (over 2^26)")
  })

  it('shows verified cases without timing as verified (vitest run)', () => {
    const text = plain(renderKernelResult(result([vectorCase(N20, ok()), vectorCase(N26, ok())], { mode: 'verify' })))
    expect(text).toMatchInlineSnapshot(`
      "vector add vector-addition · float32 · ./vector_add.cu
        case          median  cv  throughput  bandwidth  % peak  % bw  SOL  SM MHz  n  stop
        n = 2^20  ✓ verified
        n = 2^26  ✓ verified"
    `)
  })

  it('shows — for roofline figures on a GPU missing from the peaks table, and no geometric mean for one case', () => {
    const device = { ...H200, name: 'NVIDIA GeForce GTX 1080' }
    const text = plain(renderKernelResult(result([vectorCase(N26, ok(timing(Number.NaN, 'max-iterations')), summary(0.2, 0.004, 10000))], { device })))
    const row = text.split('\n')[2]!
    expect(row.trim().split(/\s{2,}/)).toEqual([
      'n = 2^26',
      '200.0 µs',
      '±0.40%',
      '335.5 GFLOPS',
      '4027 GB/s',
      '—',
      '—',
      '—',
      '—',
      '10000',
      'max-n',
    ])
    expect(text).not.toContain('geometric mean')
  })

  it('renders a skipped bench as one line after the title', () => {
    const text = plain(renderKernelResult(result([], { skipped: 'no CUDA device on this machine (cudaErrorNoDevice)', device: undefined })))
    expect(text).toBe(
      'vector add vector-addition · float32 · ./vector_add.cu\n  skipped: no CUDA device on this machine (cudaErrorNoDevice)',
    )
  })

  it('puts a VERIFICATION SKIPPED banner above the table when verification was skipped', () => {
    const options = { ...DEFAULT_MEASURE_OPTIONS, skipVerification: true }
    const lines = plain(renderKernelResult(result([vectorCase(N26, ok(timing(1975, 'target-cv')), summary(0.2, 0.004, 50))], { options }))).split('\n')
    expect(lines[1]).toBe('  VERIFICATION SKIPPED: these numbers may come from a wrong kernel')
    expect(lines[2]).toMatch(/^ {2}case\s+median/)
  })

  it("says under a table timed in 'graph' mode that its calls share inputs within a replay, and in no other mode", () => {
    const timed = (timingMode: 'graph' | 'events') =>
      plain(renderKernelResult(result([vectorCase(N26, ok(timing(1975, 'target-cv')), summary(0.2, 0.004, 50))], { options: { ...DEFAULT_MEASURE_OPTIONS, timing: timingMode } })))
    expect(timed('graph')).toContain(
      "  timing 'graph': the 20 calls of one replay run hot and see the same inputs, so a solution that memoizes within a replay reads faster: a throughput figure for honest kernels, not a defended one",
    )
    expect(timed('events')).not.toContain("timing 'graph'")
  })

  it('has no banner when verification ran', () => {
    expect(plain(renderKernelResult(RECORDED))).not.toContain('VERIFICATION SKIPPED')
  })

  it('flags a SOL above 100% in the row, and with a warning line where the guard accepted it (allowAboveRoofline)', () => {
    // 2^26 floats in 0.1 ms would be 8053 GB/s, beyond the H200's 4800 GB/s: SOL 167.8%.
    const text = plain(renderKernelResult(result([vectorCase(N26, ok(timing(1975, 'target-cv')), summary(0.1, 0.004, 50))])))
    const lines = text.split('\n')
    expect(lines[2]).toContain('168% ⚠')
    expect(lines.at(-1)).toBe(
      `  ${SOL_WARNING}`,
    )
  })

  it('counts samples dropped for interference with the throttled ones, and marks a padding fallback with its reason', () => {
    const fallback = 'the solution blocked the host for 12 ms while the spin kernel held the stream; matmul padding was used instead'
    const t = { ...timing(1975, 'target-cv', 3), droppedInterference: 2, checkedCalls: 4, paddingFallback: fallback }
    const lines = plain(renderKernelResult(result([vectorCase(N26, ok(t), summary(0.2, 0.004, 50))]))).split('\n')
    expect(lines[2]).toMatch(/^ {2}n = 2\^26 +200\.0 µs † .* 50 \(-5\) {2}cv$/)
    expect(lines.at(-1)).toBe(`  † n = 2^26: ${fallback}`)
  })

  it('says under the table which paired cases timed at places of their own, and why', () => {
    const rounds = { base: [0.2], head: [0.2], block: [0], calls: 8, dropped: 0 }
    const paired = (c: CaseResult, placed: Partial<NonNullable<CaseResult['paired']>['rounds']>): CaseResult => ({ ...c, paired: { base: { outcome: c.outcome }, rounds: { ...rounds, ...placed } } })
    const [shared, unshared] = [
      paired(vectorCase(N20, ok(timing(1975, 'target-cv')), summary(0.01, 0.01, 100)), { sharedPlaces: true }),
      paired(vectorCase(N26, ok(timing(1975, 'target-cv')), summary(0.2, 0.004, 50)), { sharedPlaces: false, unsharedReason: 'cudaIpcGetMemHandle failed: not supported' }),
    ]
    const notes = plain(renderKernelResult(result([shared, unshared]))).split('\n').filter((line) => line.includes('places not shared'))
    expect(notes).toEqual([
      '  places not shared in n = 2^26: cudaIpcGetMemHandle failed: not supported; each side timed at places of its own, which widens the interval of a memory-bound kernel',
    ])
  })

  it('says which GPU timed each case when the run spread cases over several', () => {
    const onGpu = (c: CaseResult, index: number): CaseResult => ({ ...c, gpu: { index, pciBusId: `00000000:${19 + index}:00.0` } })
    const devices = [0, 1].map((index) => ({ index, pciBusId: `00000000:${19 + index}:00.0` }))
    const twoGpus = result([onGpu(RECORDED.cases[0]!, 1), onGpu(RECORDED.cases[1]!, 0)], { devices })
    const cells = (line: string) => line.trim().split(/ {2,}/).slice(-4)
    const [, header, first, second] = plain(renderKernelResult(twoGpus)).split('\n').map(cells)
    expect(header).toEqual(['SM MHz', 'GPU', 'n', 'stop'])
    expect(first).toEqual(['1975', '1', '120', 'cv'])
    expect(second).toEqual(['1890', '0', '200 (-3)', 'max-time'])
    // One GPU: no column, whatever the cases say.
    expect(plain(renderKernelResult({ ...twoGpus, devices: devices.slice(0, 1) }))).not.toContain('GPU')
  })

  it('has no SOL warning when every case is under the floor', () => {
    expect(plain(renderKernelResult(RECORDED))).not.toContain('SOL above 100%')
  })
})

describe('renderDeviceHeader', () => {
  it('names the GPU, its SMs, L2, memory, clocks, driver, runtime and target', () => {
    expect(plain(renderDeviceHeader(H200, 'sm_90a'))).toBe(
      'NVIDIA H200  ·  132 SMs  ·  L2 50 MiB  ·  140 GiB  ·  SM clock 1755 MHz now, 1980 MHz max  ·  ' +
        'driver 580.95.05 (CUDA 13.0)  ·  runtime 13.0  ·  sm_90a',
    )
  })

  it('names how many GPUs of the model, and which, when the run used several', () => {
    const devices = [0, 1].map((index) => ({ index, pciBusId: `00000000:${19 + index}:00.0` }))
    expect(plain(renderDeviceHeader(H200, 'sm_90a', {}, devices))).toMatch(/^2 × NVIDIA H200 \(GPUs 0, 1\)  ·  132 SMs/)
  })

  it('leaves out the current clock when NVML gave none, and says why clocks are unknown', () => {
    const device: DeviceReport = { ...H200, startSmClockMHz: Number.NaN, driverRelease: undefined, nvmlError: 'libnvidia-ml.so.1 not found' }
    expect(plain(renderDeviceHeader(device, 'sm_90a')).split('\n')).toEqual([
      'NVIDIA H200  ·  132 SMs  ·  L2 50 MiB  ·  140 GiB  ·  SM clock 1980 MHz max  ·  driver 13.0 (CUDA 13.0)  ·  runtime 13.0  ·  sm_90a',
      'clocks unknown (no throttle filtering): libnvidia-ml.so.1 not found',
    ])
  })
})

describe('failureMessage', () => {
  it('lists every wrong and failed case, by name', () => {
    expect(failureMessage(RECORDED)).toBe(
      'vector add (vector-addition, float32):\n' +
        "✗ case 'n = 2^22': 1024 of 4194304 elements out of tolerance; first at 17: expected 0.5, got 0\n" +
        "✗ case 'n = 2^23': CudaError: cudaErrorIllegalAddress: an illegal memory access was encountered",
    )
  })

  it('is undefined when every case passed, timed or not', () => {
    expect(failureMessage(result([vectorCase(N26, ok(timing(1975, 'target-cv')), summary(0.2, 0.004, 50)), vectorCase(N20, ok())]))).toBeUndefined()
    expect(failureMessage(result([]))).toBeUndefined()
  })
})
