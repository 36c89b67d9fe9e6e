// The CI guard's comparison per bench: each judged case's TFLOPS in its baseline (hollow) and now (filled), joined
// by an arrow coloured by the verdict. The baseline's figure is the one the guard compared against:
// now / (1 + change).
import * as Plot from '@observablehq/plot'
import type { CaseVerdict } from '../../shared/results.js'
import { formatFlops, formatFraction } from '../format.js'
import type { BenchEntry, CasePoint } from './cases.js'
import { COLORS, POINTS_CLASS, renderSvg, slug, type Chart } from './plot.js'

const VERDICT_COLOR: Record<CaseVerdict['kind'], string> = {
  regression: COLORS.failed,
  improvement: '#16a34a',
  unchanged: COLORS.muted,
  inconclusive: COLORS.flagged,
  updated: COLORS.muted,
  'no-baseline': COLORS.muted,
  'other-gpu': COLORS.muted,
  untracked: COLORS.muted,
  'above-roofline': COLORS.failed,
}

interface Compared {
  label: string
  before: number
  after: number
  verdict: CaseVerdict
}

function compared(p: CasePoint): Compared | undefined {
  const verdict = p.case.verdict
  if (!p.figures || verdict?.change === undefined) return undefined
  const after = p.figures.flopsPerSecond / 1e12
  return { label: `${p.case.name} ${formatFraction(verdict.change, true)}`, before: after / (1 + verdict.change), after, verdict }
}

function baselineChart(bench: BenchEntry, rows: readonly Compared[]): Chart {
  const color = (d: Compared) => VERDICT_COLOR[d.verdict.kind]
  const svg = renderSvg({
    width: 720,
    height: 70 + rows.length * 36,
    marginLeft: 220,
    x: { grid: true, label: 'TFLOP/s: baseline (hollow) → now (filled) →' },
    y: { domain: rows.map((r) => r.label), label: null },
    color: { type: 'identity' },
    marks: [
      Plot.arrow(rows, { x1: 'before', x2: 'after', y: 'label', stroke: color, headLength: 6, insetEnd: 5, insetStart: 5, className: 'change' }),
      Plot.dot(rows, { x: 'before', y: 'label', r: 4.5, stroke: color, fill: 'white', title: (d) => `baseline ${formatFlops(d.before * 1e12)}`, className: 'baseline' }),
      Plot.dot(rows, { x: 'after', y: 'label', r: 4.5, fill: color, title: (d) => `${formatFlops(d.after * 1e12)} now: ${d.verdict.message}`, className: POINTS_CLASS }),
    ],
  })
  return {
    id: `baseline-${slug(bench.result.bench)}`,
    title: `Against the baseline · ${bench.result.bench}`,
    caption: `${rows.length} cases compared with ${bench.result.baseline?.file ?? 'the baseline'}; red: regression, green: improvement, amber: inconclusive, grey: unchanged.`,
    svg,
    points: rows.length,
  }
}

/** The bench's chart, when the guard compared one of its cases with a baseline from this GPU. */
export function benchBaseline(bench: BenchEntry, points: readonly CasePoint[]): Chart | undefined {
  const rows = points.filter((p) => p.bench === bench).flatMap((p) => compared(p) ?? [])
  return rows.length > 0 ? baselineChart(bench, rows) : undefined
}
