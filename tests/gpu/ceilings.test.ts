// Measured ceilings on a real GPU: sane cuBLAS and copy figures, measured once and then read from the cache, and a
// bench run that reports against them. Skipped, with the reason in the suite's name, where no GPU is usable.
import { fileURLToPath } from 'node:url'
import { describe, expect, it, vi } from 'vitest'
import { vectorAddition } from '../../problems/index.js'
import type { PluginSettings } from '../../src/vitest/plugin-settings.js'
import { runKernelBench } from '../../src/vitest/run-bench.js'
import { findCeilings } from '../../src/cache/ceilings-cache.js'
import { DeviceHost } from '../../src/engine/worker/client.js'
import type { MeasuredCeilings } from '../../src/shared/messages.js'
import { DEFAULT_MEASURE_OPTIONS } from '../../src/spec/options.js'
import { caseFigures } from '../../src/report/kernel-table.js'
import { peaksFor } from '../../src/report/peaks.js'
import { scratchFolder } from '../helpers/scratch.js'
import { gpu, onGpuTitle } from '../helpers/gpu.js'

const file = fileURLToPath(import.meta.url)
// A cache of its own, so the test measures even where the project's cache already holds ceilings.
const cacheDir = scratchFolder('kb-gpu-ceilings-')

describe.skipIf(!gpu.available)(onGpuTitle('ceilings on the GPU'), { timeout: 300_000 }, () => {
  let measured: MeasuredCeilings | undefined

  it('measures sane ceilings once; a second request reads the cache', async () => {
    const host = new DeviceHost({ device: 0, cacheDir })
    try {
      const status = await host.ready()
      if (!status.available) throw new Error(status.reason)
      const warn = vi.fn()
      const measure = vi.fn(() => host.ceilings(DEFAULT_MEASURE_OPTIONS))
      const first = await findCeilings({ cacheDir, device: status.device, measure, warn })
      expect(warn).not.toHaveBeenCalled()
      expect(first?.source).toBe('measured')
      const c = first!.record
      expect(c.gpu).toMatchObject({ name: status.device.name, pciBusId: status.device.pciBusId, driverRelease: status.device.driverRelease })
      expect(c.unavailable).toEqual([])
      const tflops = Object.fromEntries(c.gemm.map((g) => [g.dtype, g.tflops]))
      expect(Object.keys(tflops).sort()).toEqual(['bfloat16', 'float16', 'float32'])
      for (const g of c.gemm) {
        expect(g.tflops, g.dtype).toBeGreaterThan(1)
        expect(g.bestMs).toBeLessThanOrEqual(g.medianMs)
        expect(g.repetitions).toBe(10)
      }
      // Tensor cores beat plain fp32 on every GPU with bf16 support.
      expect(tflops.float16).toBeGreaterThan(tflops.float32!)
      expect(tflops.bfloat16).toBeGreaterThan(tflops.float32!)
      expect(c.copy!.gbPerSecond).toBeGreaterThan(100)
      expect(c.copy!.gbPerSecond).toBeLessThan(10_000)
      // A ceiling above the datasheet would mean a timing error (a few % of boost headroom allowed).
      const peaks = peaksFor(status.device.name)
      if (peaks) {
        for (const g of c.gemm) expect(g.tflops, g.dtype).toBeLessThan((peaks.tflops[g.dtype] ?? Infinity) * 1.05)
        expect(c.copy!.gbPerSecond).toBeLessThan(peaks.memoryBandwidthGBs)
      }
      process.stdout.write(`measured ceilings: ${JSON.stringify({ gemm: tflops, copyGBs: c.copy!.gbPerSecond, clocks: c.gemm.map((g) => g.smClockMHz) })}\n`)

      // Read back from JSON: compared by date, as an unknown clock (NaN) comes back as null.
      const second = await findCeilings({ cacheDir, device: status.device, measure, warn })
      expect(second?.source).toBe('cache')
      expect(second?.record.measuredAt).toBe(c.measuredAt)
      expect(measure).toHaveBeenCalledTimes(1)
      measured = c
    } finally {
      host.close()
    }
  })

  it('a bench run with the option uses the cached ceilings and reports % of practical peak', async () => {
    if (!measured) throw new Error('needs the ceilings of the test above')
    const settings: PluginSettings = { devices: [0], cacheDir, measure: {}, ceilings: true }
    const solution = '../../problems/vector-addition/solutions/vector_add.cu'
    const result = await runKernelBench('vector add', { problem: vectorAddition, solution, cases: (c) => c.params.n === 2 ** 26 }, { file, mode: 'bench', settings })
    expect(result.ceilings?.measuredAt).toBe(measured.measuredAt)
    const practical = caseFigures(result, result.cases[0]!)?.practical
    expect(practical?.bound).toBe('memory')
    // A vector add streams like a copy: well above half of it, and not far beyond it.
    expect(practical!.solPercent).toBeGreaterThan(50)
    expect(practical!.solPercent).toBeLessThan(130)
  })
})
