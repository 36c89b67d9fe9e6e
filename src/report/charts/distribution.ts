// Sample distributions per bench: every kept runtime sample of each timed case as its deviation from the case's
// median, so noise and outliers show at one scale across cases of very different runtimes.
import * as Plot from '@observablehq/plot'
import { formatCv, formatTime } from '../format.js'
import type { BenchEntry, CasePoint } from './cases.js'
import { COLORS, POINTS_CLASS, renderSvg, slug, type Chart } from './plot.js'

/** The case's row label: name, median, spread and sample count, with the throttled samples that were dropped. */
function rowLabel(p: CasePoint): string {
  const f = p.figures!
  const drops = [
    ...(f.droppedThrottled ? [`${f.droppedThrottled} throttled`] : []),
    ...(f.droppedInterference ? [`${f.droppedInterference} interference`] : []),
  ]
  const dropped = drops.length > 0 ? ` (−${drops.join(', −')})` : ''
  return `${p.case.name} · ${formatTime(f.medianMs)} ${formatCv(f.cv)} · n ${f.samples}${dropped}`
}

function samplesOf(p: CasePoint): number[] {
  const o = p.case.outcome
  return o.status === 'ok' && o.timing ? o.timing.samplesMs : []
}

function distributionChart(bench: BenchEntry, cases: readonly CasePoint[]): Chart {
  const labels = cases.map(rowLabel)
  const data = cases.flatMap((p, row) =>
    samplesOf(p).map((ms, i) => ({
      ms,
      i,
      // Spread within the row by sample order, so that equal runtimes stay visible as separate dots.
      row: row + (((i * 7) % 17) / 16 - 0.5) * 0.5,
      deviation: (ms / p.figures!.medianMs - 1) * 100,
      color: COLORS[p.status],
    })),
  )
  const svg = renderSvg({
    width: 720,
    height: 70 + cases.length * 44,
    marginLeft: 300,
    x: { grid: true, label: 'deviation from the case median (%) →', tickFormat: (v: number) => `${v > 0 ? '+' : ''}${v}%` },
    y: { domain: [cases.length - 0.5, -0.5], ticks: labels.map((_, i) => i), tickFormat: (i: number) => labels[i] ?? '', label: null },
    color: { type: 'identity' },
    marks: [
      Plot.ruleX([0], { stroke: COLORS.roof, className: 'median' }),
      Plot.dot(data, {
        x: 'deviation',
        y: 'row',
        r: 2.5,
        fill: 'color',
        fillOpacity: 0.5,
        title: (d) => `sample ${d.i + 1}: ${formatTime(d.ms)} (${d.deviation >= 0 ? '+' : ''}${d.deviation.toFixed(2)}%)`,
        className: POINTS_CLASS,
      }),
    ],
  })
  return {
    id: `samples-${slug(bench.result.bench)}`,
    title: `Samples · ${bench.result.bench}`,
    caption: `${data.length} kept samples of ${cases.length} timed cases, each against its case's median (the line at 0).`,
    svg,
    points: data.length,
  }
}

/** The bench's chart, when it has a timed case. */
export function benchDistribution(bench: BenchEntry, points: readonly CasePoint[]): Chart | undefined {
  const timed = points.filter((p) => p.bench === bench && p.figures)
  return timed.length > 0 ? distributionChart(bench, timed) : undefined
}
