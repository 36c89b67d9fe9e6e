// Number formatting for reports: times with their unit, throughput in G or T, and fixed-width tables.
import { stripVTControlCharacters } from 'node:util'
import type { GpuRecord } from '../shared/messages.js'
import { formatFraction } from '../shared/fraction.js'

export function formatTime(ms: number): string {
  if (!Number.isFinite(ms)) return '—'
  if (ms < 1) return `${(ms * 1000).toFixed(ms < 0.01 ? 2 : 1)} µs`
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 3 : 2)} ms`
  return `${(ms / 1000).toFixed(2)} s`
}

/** A signed difference of times in µs, to the hundredth: '+2.05 µs', '-0.02 µs'. */
export function formatOffset(ms: number): string {
  return `${ms < 0 ? '-' : '+'}${Math.abs(ms * 1e3).toFixed(2)} µs`
}

/** FLOP/s as GFLOPS below 1 TFLOP/s and TFLOPS above, so every figure has three or four significant digits. */
export function formatFlops(flopsPerSecond: number): string {
  if (!Number.isFinite(flopsPerSecond)) return '—'
  const tera = flopsPerSecond / 1e12
  return tera >= 1 ? `${tera.toFixed(tera < 10 ? 2 : 1)} TFLOPS` : `${(flopsPerSecond / 1e9).toFixed(1)} GFLOPS`
}

export function formatBandwidth(gbPerSecond: number): string {
  return Number.isFinite(gbPerSecond) ? `${gbPerSecond.toFixed(gbPerSecond < 10 ? 2 : 0)} GB/s` : '—'
}

export function formatPercent(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '—' : `${value.toFixed(value < 10 ? 1 : 0)}%`
}

// In shared/ so that the CI gate's statistics word their reasons as the reports word their figures.
export { formatFraction } from '../shared/fraction.js'

/**
 * How wide some intervals of a change are (their half-widths), and the smallest slowdown each would fail on: its
 * half-width plus its tolerance, as a regression's whole interval lies beyond the tolerance. Each as 'a to b'.
 */
export function intervalReach(intervals: readonly { low: number; high: number; tolerance: number }[]): { halfWidths: string; failingFrom: string } {
  const halfWidths = intervals.map(({ low, high }) => (high - low) / 2)
  const range = (xs: readonly number[]) => `${formatFraction(Math.min(...xs))} to ${formatFraction(Math.max(...xs))}`
  return { halfWidths: range(halfWidths), failingFrom: range(halfWidths.map((h, i) => h + intervals[i]!.tolerance)) }
}

/** A coefficient of variation as ±percent, two decimals under 1% so that low noise does not read as zero. */
export function formatCv(cv: number): string {
  return Number.isFinite(cv) ? `±${(cv * 100).toFixed(cv < 0.01 ? 2 : 1)}%` : '—'
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${value.toFixed(value < 10 && unit > 0 ? 1 : 0)} ${units[unit]}`
}

export type Align = 'left' | 'right'

/** Rows of cells padded into columns; widths ignore colour codes. */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[], align: readonly Align[]): string[] {
  const width = (cell: string) => stripVTControlCharacters(cell).length
  const widths = header.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ''))))
  const pad = (cell: string, i: number) => {
    const gap = ' '.repeat((widths[i] ?? 0) - width(cell))
    return align[i] === 'right' ? gap + cell : cell + gap
  }
  return [header, ...rows].map((row) => row.map(pad).join('  ').trimEnd())
}

/** Where and when a record cached per GPU was measured, in one line (the CLI's first line for it). */
export function formatMeasuredOn(record: GpuRecord & { maxSmClockMHz: number }): string {
  const { gpu } = record
  return (
    `${gpu.name}  ·  ${gpu.pciBusId}  ·  driver ${gpu.driverRelease ?? 'unknown'} (CUDA ${gpu.driverVersion})  ·  ` +
    `runtime ${gpu.runtimeVersion}  ·  SM clock ${record.maxSmClockMHz} MHz max  ·  measured ${record.measuredAt}`
  )
}
