// Sample distributions per bench: each timed case's kept runtime samples summarised as their deviation from the
// case's median (range, 5th to 95th percentile, quartiles), so noise and outliers show at one scale across cases of
// very different runtimes. A summary, not every sample: a suite of a few hundred cases has tens of thousands of
// samples, megabytes of SVG; every sample stays in the JSON results file.
import * as Plot from '@observablehq/plot'
import { quantile } from '../../shared/stats.js'
import { formatCv, formatTime } from '../format.js'
import { sampleDetails, type BenchEntry, type CasePoint } from './cases.js'
import { COLORS, POINTS_CLASS, renderSvg, slug, type Chart } from './plot.js'

/** The case's row label: name, median, spread and sample count, with the samples that were dropped. */
function rowLabel(p: CasePoint): string {
  const f = p.figures!
  const drops = [
    ...(f.droppedThrottled ? [`${f.droppedThrottled} throttled`] : []),
    ...(f.droppedInterference ? [`${f.droppedInterference} interference`] : []),
  ]
  const dropped = drops.length > 0 ? ` (−${drops.join(', −')})` : ''
  return `${p.case.name} · ${formatTime(f.medianMs)} ${formatCv(f.cv)} · n ${f.samples}${dropped}`
}

/** The quantiles drawn, as deviations from the median in %: the range, the 5th to 95th percentile, the quartiles. */
const QUANTILES = { min: 0, p5: 0.05, p25: 0.25, p75: 0.75, p95: 0.95, max: 1 } as const
type Spread = Record<keyof typeof QUANTILES, number>

/** A timed case's kept samples as deviations (%) from its median at each of QUANTILES. */
function spread(p: CasePoint): Spread {
  const o = p.case.outcome
  // A result without its samples (a trimmed or hand-written file) draws its median alone.
  const samples = o.status === 'ok' && o.timing && o.timing.samplesMs.length > 0 ? o.timing.samplesMs : [p.figures!.medianMs]
  const sorted = [...samples].sort((a, b) => a - b)
  const deviation = (q: number) => (quantile(sorted, q) / p.figures!.medianMs - 1) * 100
  return Object.fromEntries(Object.entries(QUANTILES).map(([key, q]) => [key, deviation(q)])) as Spread
}

const signed = (percent: number) => `${percent >= 0 ? '+' : ''}${percent.toFixed(2)}%`

function hoverText(p: CasePoint, s: Spread): string {
  return [
    `${p.case.name}: median ${formatTime(p.figures!.medianMs)}`,
    `min ${signed(s.min)} · p5 ${signed(s.p5)} · p25 ${signed(s.p25)} · p75 ${signed(s.p75)} · p95 ${signed(s.p95)} · max ${signed(s.max)}`,
    sampleDetails(p.bench.result, p.figures!),
    ...p.reasons.map((r) => `${p.status}: ${r}`),
  ].join('\n')
}

function distributionChart(bench: BenchEntry, cases: readonly CasePoint[]): Chart {
  const labels = cases.map(rowLabel)
  const rows = cases.map((p, row) => ({ p, row, ...spread(p), color: COLORS[p.status] }))
  type Row = (typeof rows)[number]
  const box = 0.18
  const svg = renderSvg({
    width: 720,
    height: 70 + cases.length * 44,
    marginLeft: 300,
    x: { grid: true, label: 'deviation from the case median (%) →', tickFormat: (v: number) => `${v > 0 ? '+' : ''}${v}%` },
    y: { domain: [cases.length - 0.5, -0.5], ticks: labels.map((_, i) => i), tickFormat: (i: number) => labels[i] ?? '', label: null },
    color: { type: 'identity' },
    marks: [
      Plot.ruleX([0], { stroke: COLORS.roof, className: 'median' }),
      Plot.ruleY(rows, { y: 'row', x1: 'min', x2: 'max', stroke: 'color', strokeOpacity: 0.6, className: 'range' }),
      Plot.ruleY(rows, { y: 'row', x1: 'p5', x2: 'p95', stroke: 'color', strokeWidth: 3, strokeOpacity: 0.6, className: 'p5-p95' }),
      Plot.rect(rows, { x1: 'p25', x2: 'p75', y1: (d: Row) => d.row - box, y2: (d: Row) => d.row + box, fill: 'color', fillOpacity: 0.3, stroke: 'color', className: 'quartiles' }),
      Plot.dot(rows, { x: () => 0, y: 'row', r: 3.5, fill: 'color', stroke: 'white', title: (d: Row) => hoverText(d.p, d), className: POINTS_CLASS }),
    ],
  })
  const samples = cases.reduce((n, p) => n + p.figures!.samples, 0)
  return {
    id: `samples-${slug(bench.result.bench)}`,
    title: `Samples · ${bench.result.bench}`,
    caption:
      `${samples} kept samples of ${cases.length} timed cases, each case against its median (the line at 0): ` +
      'its range (thin), 5th to 95th percentile (thick), quartiles (box). Every sample is in the JSON results file.',
    svg,
    points: rows.length,
  }
}

/** The bench's chart, when it has a timed case. */
export function benchDistribution(bench: BenchEntry, points: readonly CasePoint[]): Chart | undefined {
  const timed = points.filter((p) => p.bench === bench && p.figures)
  return timed.length > 0 ? distributionChart(bench, timed) : undefined
}
