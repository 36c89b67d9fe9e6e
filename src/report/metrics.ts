// Throughput and roofline figures from a runtime (docs/architecture.md, "Figures"). Pure arithmetic, tested without a GPU.
import type { Dtype } from '../spec/dtype.js'
import type { GpuPeaks, PeakDtype } from './peaks.js'

/** FLOP/s in TFLOP/s for `flops` done in `ms` milliseconds. */
export function tflops(flops: number, ms: number): number {
  return flops / (ms * 1e-3) / 1e12
}

/** Bytes moved per second in GB/s (1e9 bytes/s). */
export function gbPerSecond(bytes: number, ms: number): number {
  return bytes / (ms * 1e-3) / 1e9
}

/**
 * The compute peak a dtype is judged against: float32 problems against the plain FP32 (non-tensor) rate, since
 * verification against a no-TF32 reference rules TF32 out; half types against the dense tensor-core rate.
 */
export function peakKey(dtype: Dtype): PeakDtype | undefined {
  if (dtype === 'float32' || dtype === 'float16' || dtype === 'bfloat16') return dtype
  return undefined
}

export interface Roofline {
  /** Lowest possible time: max(flops / compute peak, bytes / bandwidth), in ms. */
  floorMs: number
  /** floor / measured, in percent: above 100 means the measurement is wrong. */
  solPercent: number
  /** Which ceiling sets the floor. */
  bound: 'compute' | 'memory'
  computePercent?: number
  bandwidthPercent: number
}

export function roofline(flops: number, bytes: number, ms: number, dtype: Dtype, peaks: GpuPeaks): Roofline {
  const key = peakKey(dtype)
  const peakTflops = key ? peaks.tflops[key] : undefined
  const computeMs = peakTflops ? (flops / (peakTflops * 1e12)) * 1e3 : 0
  const memoryMs = (bytes / (peaks.memoryBandwidthGBs * 1e9)) * 1e3
  const floorMs = Math.max(computeMs, memoryMs)
  return {
    floorMs,
    solPercent: (floorMs / ms) * 100,
    bound: computeMs > memoryMs ? 'compute' : 'memory',
    computePercent: peakTflops ? (tflops(flops, ms) / peakTflops) * 100 : undefined,
    bandwidthPercent: (gbPerSecond(bytes, ms) / peaks.memoryBandwidthGBs) * 100,
  }
}
