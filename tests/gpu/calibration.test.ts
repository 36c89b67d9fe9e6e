// Self-calibration on a real GPU: the kernel held for 100 µs on %globaltimer reads within 1% in 'cupti' timing,
// within 3% in 'profiler' (which counts the launch's front-end, as ncu does), and within a few µs in 'events' and
// 'graph'; the memory-bound kernels are read in every mode; a bench run with the option uses the cached calibration
// and marks by it. Skipped, with the reason in the suite's name, where no GPU is usable.
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { vectorAddition } from '../../problems/index.js'
import type { PluginSettings } from '../../src/vitest/plugin-settings.js'
import { runKernelBench } from '../../src/vitest/run-bench.js'
import { findCalibration } from '../../src/cache/calibration-cache.js'
import { DeviceHost } from '../../src/engine/worker/client.js'
import type { Calibration } from '../../src/shared/messages.js'
import { DEFAULT_MEASURE_OPTIONS, type TimingMode } from '../../src/spec/options.js'
import { describeCalibration, heldReadings, memoryReadings, timerOffsetMs } from '../../src/report/calibration.js'
import { caseFigures, isLargeOffset } from '../../src/report/kernel-table.js'
import { scratchFolder } from '../helpers/scratch.js'
import { gpu, onGpuTitle } from '../helpers/gpu.js'

const file = fileURLToPath(import.meta.url)
// A cache of its own, so the test measures even where the project's cache already holds a calibration.
const cacheDir = scratchFolder('kb-gpu-calibration-')

describe.skipIf(!gpu.available)(onGpuTitle('calibration on the GPU'), { timeout: 600_000 }, () => {
  let calibration: Calibration

  beforeAll(async () => {
    const host = new DeviceHost({ device: 0, cacheDir })
    try {
      const status = await host.ready()
      if (!status.available) throw new Error(status.reason)
      const found = await findCalibration({ cacheDir, device: status.device, measure: () => host.calibration(DEFAULT_MEASURE_OPTIONS.caseTimeoutMs) })
      if (!found) throw new Error('the calibration could not be measured (see the warning above)')
      calibration = found.record
      process.stdout.write(`${describeCalibration(calibration).join('\n')}\n`)
    } finally {
      host.close()
    }
  }, 600_000)

  /** How far from 1 the ratio of `timer`'s reading of the 100 µs held kernel is, and the reading in words. */
  const held100 = (timer: TimingMode) => {
    const r = heldReadings(calibration, timer).find((reading) => reading.kernel.heldMs === 0.1)!
    return { error: Math.abs(r.ratio - 1), said: `${timer} read ${(r.medianMs * 1e3).toFixed(3)} µs for 100 µs` }
  }

  it('sees %globaltimer move in steps of at most a microsecond', () => {
    expect(calibration.globalTimerStepNs).toBeGreaterThan(0)
    expect(calibration.globalTimerStepNs).toBeLessThanOrEqual(1000)
  })

  it("reads the 100 µs held kernel within 1% in 'cupti'", () => {
    const timer = calibration.timers.find((t) => t.timer === 'cupti')!
    expect(timer.unavailable).toBeUndefined()
    const { error, said } = held100('cupti')
    expect(error, said).toBeLessThan(0.01)
  })

  // gpu__time_duration counts the launch's front-end as well as the grid (+2.1 µs under ncu on an H100), so the
  // profiler cannot read 100 µs within 1% and still read what ncu reads: it is held to ncu's own error on this kernel
  // (3%) and to 1% on the time between two held kernels, where that front-end cancels out.
  it("reads the 100 µs held kernel within 3% in 'profiler', and 80 µs more for it than for the 20 µs one within 1%", (context) => {
    const timer = calibration.timers.find((t) => t.timer === 'profiler')!
    if (timer.unavailable?.includes('ProfilerUnavailable')) context.skip(timer.unavailable)
    expect(timer.unavailable).toBeUndefined()
    const { error, said } = held100('profiler')
    expect(error, said).toBeLessThan(0.03)
    const [held20, held100ms] = [0.02, 0.1].map((heldMs) => heldReadings(calibration, 'profiler').find((r) => r.kernel.heldMs === heldMs)!.medianMs)
    const slope = (held100ms! - held20!) / 0.08
    expect(Math.abs(slope - 1), `profiler read ${((held100ms! - held20!) * 1e3).toFixed(3)} µs between the 20 and 100 µs kernels`).toBeLessThan(0.01)
  })

  it.each(['events', 'graph'] as const)("reads every held kernel within a few µs in '%s'", (timer) => {
    const readings = heldReadings(calibration, timer)
    expect(readings).toHaveLength(3)
    for (const r of readings) {
      const said = `${timer} read ${(r.medianMs * 1e3).toFixed(3)} µs for ${r.kernel.name}`
      // A window cannot be shorter than the kernel in it, less a step of the timer the kernel watches.
      expect(r.offsetMs * 1e3, said).toBeGreaterThan(-0.5)
      expect(r.offsetMs * 1e3, said).toBeLessThan(5)
    }
  })

  it("reads the memory-bound kernels in every mode that ran, and the 64 Mi add alike in 'cupti' and 'profiler'", () => {
    const ran = calibration.timers.filter((t) => !t.unavailable).map((t) => t.timer)
    const readings = memoryReadings(calibration)
    for (const kernel of ['add 64 Ki floats', 'add 64 Mi floats']) {
      expect(readings.filter((r) => r.kernel === kernel).map((r) => r.timer)).toEqual(ran)
    }
    const large = readings.find((r) => r.kernel === 'add 64 Mi floats' && r.timer === 'cupti')!
    if (large.toProfiler !== undefined) expect(Math.abs(large.toProfiler - 1)).toBeLessThan(0.05)
  })

  it('a bench run with the option uses the cached calibration, and marks a case only by its mode’s offset', async () => {
    const settings: PluginSettings = { devices: [0], cacheDir, measure: {}, calibration: true }
    const solution = '../../problems/vector-addition/solutions/vector_add.cu'
    const cases = [16, 26].map((p) => ({ name: `n = 2^${p}`, params: { n: 2 ** p } }))
    const result = await runKernelBench('vector add', { problem: vectorAddition, solution, cases }, { file, mode: 'bench', settings })
    expect(result.calibration?.measuredAt).toBe(calibration.measuredAt)
    const offset = timerOffsetMs(calibration, 'events')
    expect(result.cases.map((c) => c.name)).toEqual(cases.map((c) => c.name))
    for (const c of result.cases) expect(c.outcome.status, `${c.name}: ${JSON.stringify(c.outcome)}`).toBe('ok')
    const [small, large] = result.cases.map((c) => caseFigures(result, c)!)
    process.stdout.write(`events offset ${offset! * 1e3} µs; 2^16: ${small!.medianMs * 1e3} µs, 2^26: ${large!.medianMs * 1e3} µs\n`)
    expect(small!.largeOffsetMs !== undefined).toBe(isLargeOffset(offset, small!.medianMs))
    expect(large!.largeOffsetMs).toBeUndefined()
  })
})
