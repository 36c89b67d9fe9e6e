// The roofline chart, one per GPU and dtype: arithmetic intensity (FLOP/byte) against attained TFLOP/s, both log,
// under the datasheet's compute roof and bandwidth slope and, when measured, the practical ones (cuBLAS, a copy).
// Every case is a point with its bench, case and figures on hover; a case that failed without a time sits on the
// bottom edge at its intensity.
import * as Plot from '@observablehq/plot'
import type { Dtype } from '../../spec/dtype.js'
import { ceilingPeaks } from '../ceilings.js'
import { formatBandwidth, formatFlops, formatPercent, formatTime } from '../format.js'
import { computeCeiling } from '../metrics.js'
import { peaksFor, type GpuPeaks } from '../peaks.js'
import { groupBy, sampleDetails, type CasePoint } from './cases.js'
import { COLORS, POINTS_CLASS, legendMarks, logTick, renderSvg, slug, type Chart } from './plot.js'

interface Roof {
  label: string
  peaks: GpuPeaks
  /** Compute peak in TFLOP/s; absent when the source gives none for the dtype (then only the slope is drawn). */
  tflops?: number
  color: string
  dashed: boolean
}

/** Attainable TFLOP/s at an intensity: the bandwidth slope below the ridge, the compute roof above it. */
function attainable(roof: Roof, intensity: number): number {
  const slope = (intensity * roof.peaks.memoryBandwidthGBs) / 1e3
  return roof.tflops === undefined ? slope : Math.min(roof.tflops, slope)
}

function roofs(points: readonly CasePoint[], dtype: Dtype): Roof[] {
  const { result } = points[0]!.bench
  const datasheet = result.device && peaksFor(result.device.name)
  const measured = points.map((p) => p.bench.result.ceilings).find((c) => c !== undefined)
  const practical = measured && ceilingPeaks(measured)
  return [
    ...(datasheet ? [{ label: `${datasheet.model} datasheet`, peaks: datasheet, tflops: computeCeiling(dtype, datasheet), color: COLORS.roof, dashed: false }] : []),
    ...(practical ? [{ label: 'measured (cuBLAS, copy)', peaks: practical, tflops: computeCeiling(dtype, practical), color: COLORS.practical, dashed: true }] : []),
  ]
}

function hoverText(p: CasePoint, intensity: number): string {
  const f = p.figures
  const figures = f
    ? [
        `${formatTime(f.medianMs)} · ${formatFlops(f.flopsPerSecond)} · ${formatBandwidth(f.gbPerSecond)}`,
        `SOL ${formatPercent(f.roofline?.solPercent ?? f.practical?.solPercent)}`,
        sampleDetails(p.bench.result, f),
      ]
    : []
  return [`${p.bench.result.bench} · ${p.case.name}`, `${intensity.toPrecision(3)} FLOP/byte`, ...figures, ...p.reasons.map((r) => `${p.status}: ${r}`)].join('\n')
}

/** Powers of ten around the values, so the axes end on labelled decades. */
function decades(values: readonly number[]): [number, number] {
  return [10 ** Math.floor(Math.log10(Math.min(...values))), 10 ** Math.ceil(Math.log10(Math.max(...values)))]
}

function rooflineChart(gpu: string, dtype: Dtype, points: readonly CasePoint[]): Chart {
  const lines = roofs(points, dtype)
  const placed = points.map((p) => ({ p, intensity: p.case.flops / p.case.bytes, tflops: p.figures && p.figures.flopsPerSecond / 1e12 }))
  const ridges = lines.flatMap((r) => (r.tflops ? [(r.tflops * 1e3) / r.peaks.memoryBandwidthGBs] : []))
  const x = decades([...placed.map((d) => d.intensity), ...ridges].flatMap((v) => [v / 3, v * 3]))
  const peakValues = lines.flatMap((r) => [attainable(r, x[1]), attainable(r, x[0])])
  const y = decades([...placed.flatMap((d) => (d.tflops ? [d.tflops] : [])), ...peakValues].map((v) => Math.max(v, 1e-6)))
  // Each roof through its corners (the axis ends and every ridge): on log axes it is straight between them.
  const roofData = lines.flatMap((roof) => [x[0], ...ridges, x[1]].sort((a, b) => a - b).map((intensity) => ({ roof, intensity, tflops: attainable(roof, intensity) })))
  const data = placed.map((d) => ({ ...d, y: d.tflops ?? y[0], color: COLORS[d.p.status], symbol: d.tflops ? 'circle' : 'times' }))
  const svg = renderSvg({
    width: 720,
    height: 440,
    marginRight: 40,
    x: { type: 'log', domain: x, grid: true, tickFormat: logTick, label: 'arithmetic intensity (FLOP/byte) →' },
    y: { type: 'log', domain: y, grid: true, tickFormat: logTick, label: '↑ attained TFLOP/s' },
    symbol: { type: 'identity' },
    color: { type: 'identity' },
    marks: [
      ...lines.map((roof) =>
        Plot.line(roofData.filter((d) => d.roof === roof), { x: 'intensity', y: 'tflops', stroke: roof.color, strokeWidth: 1.5, strokeDasharray: roof.dashed ? '6 4' : undefined, className: 'roof-line' }),
      ),
      Plot.text(
        lines.map((roof) => ({ roof, intensity: x[1], tflops: attainable(roof, x[1]) })),
        { x: 'intensity', y: 'tflops', text: (d: { roof: Roof }) => roofLabel(d.roof), textAnchor: 'end', dy: -7, fill: (d: { roof: Roof }) => d.roof.color, className: 'roof-label' },
      ),
      Plot.dot(data, { x: 'intensity', y: 'y', r: 4.5, symbol: 'symbol', stroke: 'color', fill: (d) => (d.tflops ? d.color : 'none'), fillOpacity: 0.8, strokeWidth: 1.5, title: (d) => hoverText(d.p, d.intensity), className: POINTS_CLASS }),
      ...legendMarks([
        { label: 'ok', color: COLORS.ok },
        { label: 'flagged', color: COLORS.flagged },
        { label: 'failed', color: COLORS.failed },
        { label: 'failed, no time', color: COLORS.failed, symbol: 'times' },
      ]),
    ],
  })
  const roofNames = lines.map((r) => r.label).join(' and ') || 'no roofs: the GPU is not in the peak table and has no measured ceilings'
  return {
    id: `roofline-${slug(gpu)}-${dtype}`,
    title: `Roofline · ${gpu} · ${dtype}`,
    caption: `${points.length} cases; roofs: ${roofNames}. Hover a point for its bench, case and figures.`,
    svg,
    points: data.length,
  }
}

function roofLabel(roof: Roof): string {
  const compute = roof.tflops === undefined ? 'no compute peak' : formatFlops(roof.tflops * 1e12)
  return `${roof.label}: ${compute}, ${formatBandwidth(roof.peaks.memoryBandwidthGBs)}`
}

/**
 * A roofline per GPU and dtype over every case with a FLOP and a byte count (intensity needs both), timed or
 * failed; cases of several results files share the chart of their GPU.
 */
export function rooflineCharts(points: readonly CasePoint[]): Chart[] {
  const drawable = points.filter((p) => p.case.flops > 0 && p.case.bytes > 0 && (p.figures || p.status === 'failed') && p.bench.result.device)
  const groups = groupBy(drawable, (p) => `${p.bench.result.device!.name}\u0000${p.bench.result.dtype}`)
  return [...groups.values()].map((group) => rooflineChart(group[0]!.bench.result.device!.name, group[0]!.bench.result.dtype, group))
}
