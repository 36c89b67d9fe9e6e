// What bounds each case of a bench (the `counters` option): compute (SM) throughput against memory throughput, both
// % of peak as ncu's speed-of-light section gives them, one point per case coloured by the verdict. Lines at 60% and
// 80% mark the thresholds of ncu's bottleneck rule: above 80% on either axis a case is bound by it, below 60% on both
// it waits on latency.
import * as Plot from '@observablehq/plot'
import { MEMORY, SM, SOL_THRESHOLDS, type Bound } from '../bound.js'
import type { CaseRecord } from '../json.js'
import type { BenchEntry, CasePoint } from './cases.js'
import { COLORS, POINTS_CLASS, legendMarks, renderSvg, slug, type Chart } from './plot.js'

const BOUND_COLOR: Record<Bound, string> = {
  compute: '#7c3aed',
  memory: '#0891b2',
  latency: COLORS.flagged,
  balanced: COLORS.muted,
}

interface Counted {
  name: string
  compute: number
  memory: number
  bound: Bound
  text: string
}

/** A case's counters as the results file holds them (the charts read saved files). */
function counted(p: CasePoint): Counted | undefined {
  const record = (p.case as CaseRecord).counters
  if (record?.status !== 'ok') return undefined
  const { metrics } = record.aggregate
  return { name: p.case.name, compute: metrics[SM], memory: metrics[MEMORY], bound: record.verdict.bound, text: record.verdict.text }
}

function speedOfLightChart(bench: BenchEntry, rows: readonly Counted[]): Chart {
  const percent = { domain: [0, 100], grid: true }
  const thresholds = [SOL_THRESHOLDS.latency, SOL_THRESHOLDS.bound]
  const bounds = [...new Set(rows.map((r) => r.bound))]
  const svg = renderSvg({
    width: 480,
    height: 420,
    x: { ...percent, label: 'memory throughput, % of peak →' },
    y: { ...percent, label: '↑ compute (SM) throughput, % of peak' },
    color: { type: 'identity' },
    marks: [
      Plot.ruleX(thresholds, { stroke: COLORS.muted, strokeDasharray: '4,3' }),
      Plot.ruleY(thresholds, { stroke: COLORS.muted, strokeDasharray: '4,3' }),
      Plot.dot(rows, {
        x: 'memory',
        y: 'compute',
        r: 5,
        fill: (d: Counted) => BOUND_COLOR[d.bound],
        title: (d: Counted) => `${d.name}: ${d.text} (SM ${d.compute.toFixed(1)}%, memory ${d.memory.toFixed(1)}%)`,
        className: POINTS_CLASS,
      }),
      ...legendMarks(bounds.map((bound) => ({ label: bound === 'balanced' ? bound : `${bound}-bound`, color: BOUND_COLOR[bound] }))),
    ],
  })
  return {
    id: `speed-of-light-${slug(bench.result.bench)}`,
    title: `What bounds each case · ${bench.result.bench}`,
    caption: `${rows.length} cases with counters: compute against memory throughput (ncu's speed of light); dashed lines at ncu's 60% and 80% thresholds.`,
    svg,
    points: rows.length,
  }
}

/** The bench's chart, when some of its cases have counters. */
export function benchSpeedOfLight(bench: BenchEntry, points: readonly CasePoint[]): Chart | undefined {
  const rows = points.filter((p) => p.bench === bench).flatMap((p) => counted(p) ?? [])
  return rows.length > 0 ? speedOfLightChart(bench, rows) : undefined
}
