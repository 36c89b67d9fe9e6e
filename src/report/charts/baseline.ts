// The CI gate's judgement per bench: each compared case's change of speed against its baseline as a point, its
// interval as a bar, with rules at 0 and at ± the tolerance, coloured by the verdict. A case without an interval
// (too few samples) cannot be drawn as one, so it is listed under the plot with the reason, in the SVG itself so the
// standalone file says it too.
import * as Plot from '@observablehq/plot'
import type { CaseVerdict } from '../../shared/results.js'
import { formatChangeInterval, formatLevel, type ChangeInterval, type ChangeVerdictKind } from '../../shared/median-change.js'
import { formatFraction } from '../format.js'
import type { BenchEntry, CasePoint } from './cases.js'
import { COLORS, POINTS_CLASS, renderSvg, slug, type Chart } from './plot.js'

const VERDICT_COLOR: Record<ChangeVerdictKind, string> = {
  regression: COLORS.failed,
  improvement: '#16a34a',
  unchanged: COLORS.muted,
  inconclusive: COLORS.flagged,
}

interface Judged {
  name: string
  kind: ChangeVerdictKind
  change: number
  reason: string
  tolerance?: number
  interval?: CaseVerdict['interval']
}

interface Drawn extends Judged {
  label: string
  interval: ChangeInterval
}

const isJudged = (kind: CaseVerdict['kind']): kind is ChangeVerdictKind => kind in VERDICT_COLOR

/** The gate's judgement of a case, when it compared the case with a baseline ('updated' wrote one instead). */
function judged(p: CasePoint): Judged | undefined {
  const v = p.case.verdict
  if (!v || v.change === undefined || !isJudged(v.kind)) return undefined
  return { name: p.case.name, kind: v.kind, change: v.change, reason: v.reason ?? v.message, tolerance: v.tolerance, interval: v.interval }
}

const NOTE_LINE = 16
/** The room below the frame for the x axis; the notes go under it. */
const AXIS_ROOM = 40
const MARGIN_LEFT = 260

function baselineChart(bench: BenchEntry, cases: readonly Judged[]): Chart {
  const drawn: Drawn[] = cases.flatMap((c) => {
    if (!c.interval) return []
    const interval = { change: c.change, ...c.interval }
    return [{ ...c, interval, label: `${c.name} ${formatChangeInterval(interval)}` }]
  })
  const notes = cases.filter((c) => !c.interval).map((c) => `${c.name}: ${formatFraction(c.change, true)}, no interval: ${c.reason}`)
  const tolerances = [...new Set(cases.flatMap((c) => (c.tolerance === undefined ? [] : [c.tolerance])))]
  const color = (d: Judged) => VERDICT_COLOR[d.kind]
  const notesHeight = notes.length * NOTE_LINE
  const svg = renderSvg({
    width: 720,
    height: 70 + drawn.length * 36 + notesHeight,
    marginLeft: MARGIN_LEFT,
    marginBottom: AXIS_ROOM + notesHeight,
    x: { grid: true, percent: true, label: 'change of speed (%): slower ← → faster', labelOffset: AXIS_ROOM - 8, tickFormat: (v: number) => (v > 0 ? `+${v}` : `${v}`) },
    y: { domain: drawn.map((d) => d.label), label: null },
    color: { type: 'identity' },
    marks: [
      Plot.ruleX([0], { stroke: COLORS.roof, className: 'zero' }),
      Plot.ruleX(
        tolerances.flatMap((t) => [-t, t]),
        { stroke: COLORS.practical, strokeDasharray: '4,3', className: 'tolerance' },
      ),
      Plot.ruleY(drawn, { y: 'label', x1: (d: Drawn) => d.interval.low, x2: (d: Drawn) => d.interval.high, stroke: color, strokeWidth: 3, className: 'interval' }),
      Plot.dot(drawn, {
        x: 'change',
        y: 'label',
        r: 4.5,
        fill: color,
        title: (d: Drawn) => `${d.name}: ${formatChangeInterval(d.interval)} (${formatLevel(d.interval.confidence)} interval) · ${d.kind}: ${d.reason}`,
        className: POINTS_CLASS,
      }),
      ...notes.map((note, i) =>
        Plot.text([note], { frameAnchor: 'bottom-left', dx: 10 - MARGIN_LEFT, dy: AXIS_ROOM + 8 + i * NOTE_LINE, text: (d: string) => d, textAnchor: 'start', fill: COLORS.flagged, className: 'no-interval' }),
      ),
    ],
  })
  const tolerance = tolerances.map((t) => `±${formatFraction(t)}`).join(', ')
  return {
    id: `baseline-${slug(bench.result.bench)}`,
    title: `Against the baseline · ${bench.result.bench}`,
    caption:
      `${cases.length} cases compared with ${bench.result.baseline?.file ?? 'the baseline'}: the change of speed and its interval, ` +
      `the tolerance${tolerance ? ` (${tolerance})` : ''} dashed; red: regression, green: improvement, amber: inconclusive, grey: unchanged.`,
    svg,
    points: drawn.length,
  }
}

/** The bench's chart, when the gate compared one of its cases with a baseline from this GPU. */
export function benchBaseline(bench: BenchEntry, points: readonly CasePoint[]): Chart | undefined {
  const cases = points.filter((p) => p.bench === bench).flatMap((p) => judged(p) ?? [])
  return cases.length > 0 ? baselineChart(bench, cases) : undefined
}
