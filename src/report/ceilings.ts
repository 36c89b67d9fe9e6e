// Measured ceilings in reports (docs/architecture.md, "Figures"): as the peaks of a "practical" roofline (what
// cuBLAS and a copy reach on this GPU, as Croqtile compares with cuBLAS), and in words for the device header and
// the CLI. Pure.
import type { CeilingTiming, MeasuredCeilings } from '../shared/messages.js'
import { formatBandwidth, formatBytes, formatFlops, formatMeasuredOn, formatTime } from './format.js'
import { peaksFor, type GpuPeaks } from './peaks.js'

/**
 * The ceilings as peaks for metrics.roofline(): the GEMM TFLOPS per dtype as compute peaks, the copy bandwidth as
 * the memory bandwidth. Undefined without a copy ceiling: no roofline has a floor without a bandwidth.
 */
export function ceilingPeaks(ceilings: MeasuredCeilings): GpuPeaks | undefined {
  if (!ceilings.copy) return undefined
  return {
    model: `${ceilings.gpu.name} (measured ceilings)`,
    tflops: Object.fromEntries(ceilings.gemm.map((g) => [g.dtype, g.tflops])),
    memoryBandwidthGBs: ceilings.copy.gbPerSecond,
    source: `measured ${ceilings.measuredAt}: ${ceilingsMethod(ceilings)}`,
  }
}

const gemmSizes = (ceilings: MeasuredCeilings) => [...new Set(ceilings.gemm.map((g) => `${g.size}³`))].join('/')

/** How the ceilings were taken, in short: 'cuBLAS 8192³, D2D copy 1.0 GiB'. */
export function ceilingsMethod(ceilings: MeasuredCeilings): string {
  return [
    ...(ceilings.gemm.length > 0 ? [`cuBLAS ${gemmSizes(ceilings)}`] : []),
    ...(ceilings.copy ? [`D2D copy ${formatBytes(ceilings.copy.bytes)}`] : []),
  ].join(', ')
}

/** The SM clocks the ceilings ran at: 'SM 1980 MHz', 'SM 1755–1980 MHz', or unknown (no NVML; null once read from JSON). */
function clocksText(ceilings: MeasuredCeilings): string {
  const timings: CeilingTiming[] = [...ceilings.gemm, ...(ceilings.copy ? [ceilings.copy] : [])]
  const known = timings.map((t) => t.smClockMHz).filter((mhz) => Number.isFinite(mhz)).map(Math.round)
  if (known.length === 0) return 'SM clock unknown'
  const [low, high] = [Math.min(...known), Math.max(...known)]
  return `SM ${low === high ? low : `${low}–${high}`} MHz`
}

/** One line for the device header: 'measured ceilings (2026-11-21, SM 1980 MHz): cuBLAS 8192³ float32 51.2 TFLOPS, …'. */
export function ceilingsLine(ceilings: MeasuredCeilings): string {
  const gemm = ceilings.gemm.map((g) => `${g.dtype} ${formatFlops(g.tflops * 1e12)}`).join(', ')
  const parts = [
    ...(gemm ? [`cuBLAS ${gemmSizes(ceilings)} ${gemm}`] : []),
    ...(ceilings.copy ? [`D2D copy ${formatBandwidth(ceilings.copy.gbPerSecond)}`] : []),
  ]
  return `measured ceilings (${ceilings.measuredAt.slice(0, 10)}, ${clocksText(ceilings)}): ${parts.join('  ·  ')}`
}

/**
 * Says where the % columns' peaks come from when the datasheet table does not know the GPU: the measured ceilings,
 * or nowhere (and how to measure them). Undefined for a GPU in the table.
 */
export function peaksNote(deviceName: string, ceilings: MeasuredCeilings | undefined): string | undefined {
  if (peaksFor(deviceName)) return undefined
  if (ceilings && ceilingPeaks(ceilings)) return `peaks: measured ceilings (${ceilingsMethod(ceilings)}), no datasheet entry for ${deviceName}`
  return (
    `peaks: no datasheet entry for ${deviceName}, so the % columns are blank; ` +
    '`npx vitest-kernel-bench ceilings` measures ceilings to judge against'
  )
}

/** How one ceiling was timed: 'best 21.54 ms of 10 (median 21.60 ms, after 3 warmup) at 1980 MHz'. */
function timingText(t: CeilingTiming): string {
  const clock = Number.isFinite(t.smClockMHz) ? ` at ${Math.round(t.smClockMHz)} MHz` : ''
  return `best ${formatTime(t.bestMs)} of ${t.repetitions} (median ${formatTime(t.medianMs)}, after ${t.warmup} warmup)${clock}`
}

/** The ceilings in full, one per line, with how each was timed (the CLI prints this). */
export function describeCeilings(ceilings: MeasuredCeilings): string[] {
  const { copy } = ceilings
  const row = (what: string, rate: string, how: string) => `  ${what.padEnd(20)}  ${rate.padStart(12)}  ${how}`
  return [
    formatMeasuredOn(ceilings),
    ...ceilings.gemm.map((g) => row(`GEMM ${g.size}³ ${g.dtype}`, formatFlops(g.tflops * 1e12), `${g.call}; ${timingText(g)}`)),
    ...(copy ? [row(`D2D copy ${formatBytes(copy.bytes)}`, formatBandwidth(copy.gbPerSecond), `read + write counted; ${timingText(copy)}`)] : []),
    ...ceilings.unavailable.map((u) => `  not measured: ${u}`),
  ]
}
