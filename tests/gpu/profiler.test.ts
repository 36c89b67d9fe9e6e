// The `profiler` timing mode on the GPU: a sample is Nsight Compute's gpu__time_duration.sum summed over the kernels
// of one call, on any stream, read in process through CUPTI's range profiler. First the binding on the harness's own
// kernels, then whole benches against the `cupti` mode and against planted multi-kernel and multi-stream solutions.
// Skipped, with the reason, where no GPU is usable.
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PluginSettings } from '../../src/vitest/plugin-settings.js'
import type { KernelBenchSpec } from '../../src/vitest/resolve-spec.js'
import { runKernelBench } from '../../src/vitest/run-bench.js'
import { compileRangeProfilerShim } from '../../src/compile/cupti-shim.js'
import * as cuda from '../../src/native/cuda.js'
import { RangeProfiler } from '../../src/native/range-profiler.js'
import { failureMessage, type CaseResult } from '../../src/shared/results.js'
import { vectorAddition } from '../../problems/index.js'
import { cacheDir, FLOATS, useFillOnGpu0 } from '../helpers/fill-on-gpu0.js'
import { gpu, onGpuTitle } from '../helpers/gpu.js'

const file = fileURLToPath(import.meta.url)
const settings: PluginSettings = { devices: [0], cacheDir, measure: {} }
const honest = '../../problems/vector-addition/solutions/vector_add.cu'
const hostile = (name: string) => `../fixtures/solutions/hostile/${name}.cu`
const size = (power: number) => [{ name: `n = 2^${power}`, params: { n: 2 ** power } }]

describe.skipIf(!gpu.available)(onGpuTitle('the range profiler on the GPU'), { timeout: 300_000 }, () => {
  // Twenty fills load the module and raise the clocks, outside any session.
  const { gpu0, fill } = useFillOnGpu0(20)
  let profiler: RangeProfiler

  beforeAll(() => {
    profiler = new RangeProfiler(compileRangeProfilerShim(gpu0().build).path)
    profiler.enable(0)
  })
  afterAll(() => profiler.disable())

  it('profiles each kernel of a call, and sums them', () => {
    const one = profiler.timeCall(fill)
    const two = profiler.timeCall(() => {
      fill()
      fill()
    })
    expect(one.kernels).toBe(1)
    expect(one.ms).toBeGreaterThan(0.001)
    expect(one.ms).toBeLessThan(10)
    expect(two.kernels).toBe(2)
    expect(two.ms / one.ms).toBeGreaterThan(1.6)
    expect(two.ms / one.ms).toBeLessThan(2.4)
  })

  it('leaves out what is not a kernel, and what runs outside the session', () => {
    fill() // queued before the session, and waited for by it
    const memset = profiler.timeCall(() => cuda.memsetAsync(gpu0().buffer, 0, FLOATS * 4))
    expect(memset.kernels).toBe(0)
    expect(memset.ms).toBe(0)
  })

  it('keeps the kernel of the next call apart (the image is reset after every call)', () => {
    const samples = Array.from({ length: 20 }, () => profiler.timeCall(fill))
    expect(samples.every((s) => s.kernels === 1)).toBe(true)
    const ms = samples.map((s) => s.ms).sort((a, b) => a - b)
    expect(ms.at(-1)! / ms[0]!).toBeLessThan(1.5)
  })
})

function bench(spec: Omit<KernelBenchSpec, 'problem'>) {
  return runKernelBench('profiler', { problem: vectorAddition, ...spec }, { file, mode: 'bench', settings })
}

function timed(c: CaseResult | undefined) {
  if (c?.outcome.status !== 'ok' || !c.outcome.timing || !c.summary) throw new Error(`not timed: ${JSON.stringify(c?.outcome)}`)
  return { timing: c.outcome.timing, summary: c.summary }
}

async function median(spec: Omit<KernelBenchSpec, 'problem'>): Promise<number> {
  const result = await bench(spec)
  expect(failureMessage(result)).toBeUndefined()
  return timed(result.cases[0]).summary.median
}

describe.skipIf(!gpu.available)(onGpuTitle("timing 'profiler' on the GPU"), { timeout: 300_000 }, () => {
  it("vector add of 2^24 floats: within a few % of 'cupti' (ncu's duration adds the front end's part of the launch), in under a second", async () => {
    const result = await bench({ solution: honest, cases: size(24), timing: 'profiler' })
    expect(failureMessage(result)).toBeUndefined()
    const { timing, summary } = timed(result.cases[0])
    const cupti = await median({ solution: honest, cases: size(24), timing: 'cupti' })
    console.log(`2^24: profiler ${(summary.median * 1e3).toFixed(2)} µs ±${(summary.cv * 100).toFixed(2)}% n=${summary.n} in ${timing.wallMs.toFixed(0)} ms, cupti ${(cupti * 1e3).toFixed(2)} µs`)
    expect(summary.median / cupti).toBeGreaterThan(0.98)
    expect(summary.median / cupti).toBeLessThan(1.06)
    expect(timing.streamAudit).toBe('off')
    expect(timing.checkedCalls).toBeGreaterThan(0)
    expect(timing.wallMs).toBeLessThan(1000)
  })

  it("a call of two kernels is the sum of both: the add split in two halves reads like 'cupti''s span of the two (one kernel alone would be half)", async () => {
    const profiled = await median({ solution: hostile('split_add_one_stream'), cases: size(25), timing: 'profiler' })
    const span = await median({ solution: hostile('split_add_one_stream'), cases: size(25), timing: 'cupti' })
    expect(profiled / span).toBeGreaterThan(0.95)
    expect(profiled / span).toBeLessThan(1.08)
  })

  it('kernels on private streams count, serialized as in ncu: two private streams read like the same kernels on one', async () => {
    const streams = await median({ solution: hostile('two_private_streams'), cases: size(25), timing: 'profiler' })
    const oneStream = await median({ solution: hostile('split_add_one_stream'), cases: size(25), timing: 'profiler' })
    expect(streams / oneStream).toBeGreaterThan(0.95)
    expect(streams / oneStream).toBeLessThan(1.05)
  })

  it('work deferred behind a delay kernel on a private stream is in the sample, delay included', async () => {
    expect(await median({ solution: hostile('deferred_work'), cases: size(20), timing: 'profiler' })).toBeGreaterThan(0.05)
  })

  // Only where the driver restricts the counters and this process is not root: the message says how to allow them.
  const restricted = fs.existsSync('/proc/driver/nvidia/params') && /RmProfilingAdminOnly: 1/.test(fs.readFileSync('/proc/driver/nvidia/params', 'utf8'))
  it.runIf(restricted && process.getuid?.() !== 0)('restricted performance counters fail the bench with how to allow them', async () => {
    const message = failureMessage(await bench({ solution: honest, cases: size(20), timing: 'profiler' }))
    expect(message).toMatch(/ProfilerUnavailable: timing 'profiler' cannot run here \(kb_prof_\w+ failed: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES\): profiling is restricted to admin users/)
    expect(message).toContain('NVreg_RestrictProfilingToAdminUsers=0')
  })
})
