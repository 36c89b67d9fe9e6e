// Throughput and roofline figures from a runtime (docs/architecture.md, "Figures"). Pure arithmetic, tested without a GPU.
// Each dtype is judged against the fastest path that keeps its accuracy (computeCeiling): for float32 that is
// max(FP32, TF32 / 3), since 3×TF32 on tensor cores passes fp32 verification; '% peak' and SOL use that ceiling.
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

/** The datasheet key of a dtype's compute peak: the dtype itself where the datasheet has one. */
export function peakKey(dtype: Dtype): PeakDtype | undefined {
  if (dtype === 'float32' || dtype === 'float16' || dtype === 'bfloat16') return dtype
  return undefined
}

/** TF32 tensor products per fp32-accurate product in 3×TF32: a·b ≈ a_hi·b_hi + a_hi·b_lo + a_lo·b_hi. */
export const TF32_PRODUCTS_PER_FP32 = 3

/**
 * The compute ceiling (TFLOPS) a dtype's work is judged against on the roofline: the fastest path that keeps the
 * dtype's accuracy. For float32 that is not only the CUDA cores' FP32 rate: split into TF32 halves, three tensor-core
 * products give an fp32-accurate result (3×TF32, as CUTLASS does) at a third of the TF32 rate, 165 TFLOPS dense on an
 * H100 SXM against 67 on the CUDA cores; an honest kernel that does so passes fp32 verification and must not be
 * refused as faster than the GPU can go. Half types: their dense tensor-core rate. Undefined without a figure.
 */
export function computeCeiling(dtype: Dtype, peaks: Pick<GpuPeaks, 'tflops'>): number | undefined {
  const key = peakKey(dtype)
  if (!key) return undefined
  const own = peaks.tflops[key]
  const tf32 = peaks.tflops.tf32
  if (key !== 'float32' || tf32 === undefined) return own
  return Math.max(own ?? 0, tf32 / TF32_PRODUCTS_PER_FP32)
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

/**
 * Bytes of a case that may reach DRAM only after its timed call has ended: its outputs' writes, up to the L2's size.
 * The L2 is emptied before every timed call, so the inputs come from DRAM, but a kernel's writes can stay in the
 * (write-back) L2 when it ends; a timer that sees the kernel alone (cupti, profiler) then reads it faster than all its
 * bytes at DRAM bandwidth allow (measured on an H100: a 2^22-float vector add at 110% of that roofline).
 */
export function heldBackBytes(outputBytes: number, l2Bytes: number): number {
  return Math.max(0, Math.min(outputBytes, l2Bytes))
}

export function roofline(flops: number, bytes: number, ms: number, dtype: Dtype, peaks: GpuPeaks): Roofline {
  const peakTflops = computeCeiling(dtype, peaks)
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
