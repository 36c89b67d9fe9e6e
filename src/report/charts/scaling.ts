// Throughput and bandwidth against problem size, per problem (as Triton's perf_report draws them): one line per
// bench sharing the problem (solutions, dtypes, GPUs), its geometric mean as a dashed rule of the same colour, and
// a legend in the SVG so that the file alone says which line is which.
import * as Plot from '@observablehq/plot'
import { geometricMean } from '../../shared/stats.js'
import { formatBandwidth, formatBytes, formatFlops } from '../format.js'
import { groupBy, seriesLabeller, type CasePoint } from './cases.js'
import { POINTS_CLASS, SERIES_COLORS, legendHeight, legendMarks, logTick, renderSvg, slug, type Chart } from './plot.js'

interface Measure {
  key: 'tflops' | 'bandwidth'
  axis: string
  value: (p: CasePoint) => number
  format: (value: number) => string
}

const MEASURES: readonly Measure[] = [
  { key: 'tflops', axis: '↑ TFLOP/s', value: (p) => p.figures!.flopsPerSecond / 1e12, format: (v) => formatFlops(v * 1e12) },
  { key: 'bandwidth', axis: '↑ GB/s', value: (p) => p.figures!.gbPerSecond, format: formatBandwidth },
]

function scalingChart(problem: string, measure: Measure, points: readonly CasePoint[]): Chart {
  const label = seriesLabeller([...new Set(points.map((p) => p.bench))])
  const series = [...groupBy(points, (p) => label(p.bench)).entries()].map(([name, cases], i) => ({
    name,
    color: SERIES_COLORS[i % SERIES_COLORS.length]!,
    cases: [...cases].sort((a, b) => a.case.bytes - b.case.bytes),
    mean: geometricMean(cases.map(measure.value)),
  }))
  const data = series.flatMap((s) => s.cases.map((p) => ({ s, p, bytes: p.case.bytes, value: measure.value(p) })))
  const svg = renderSvg({
    width: 720,
    height: 360,
    insetTop: legendHeight(series.length),
    x: { type: 'log', base: 2, nice: true, grid: true, tickFormat: formatBytes, label: 'minimum bytes moved (problem size) →' },
    y: { type: 'log', nice: true, grid: true, tickFormat: logTick, label: measure.axis },
    color: { type: 'identity' },
    marks: [
      Plot.ruleY(series, { y: 'mean', stroke: 'color', strokeDasharray: '4 4', strokeOpacity: 0.7, title: (s) => `${s.name}: geometric mean ${measure.format(s.mean)}`, className: 'geometric-mean' }),
      Plot.line(data, { x: 'bytes', y: 'value', z: (d) => d.s.name, stroke: (d) => d.s.color, strokeWidth: 1.5, className: 'series' }),
      Plot.dot(data, {
        x: 'bytes',
        y: 'value',
        fill: (d) => d.s.color,
        r: 3.5,
        title: (d) => `${d.s.name} · ${d.p.case.name}\n${formatBytes(d.bytes)} · ${measure.format(d.value)}`,
        className: POINTS_CLASS,
      }),
      ...legendMarks(series.map((s) => ({ label: `${s.name} (geometric mean ${measure.format(s.mean)})`, color: s.color })), 'column'),
    ],
  })
  const word = measure.key === 'tflops' ? 'Throughput' : 'Bandwidth'
  return {
    id: `scaling-${slug(problem)}-${measure.key}`,
    title: `${word} against size · ${problem}`,
    caption: `${series.length} series, ${data.length} timed cases; dashed: each series' geometric mean.`,
    svg,
    points: data.length,
  }
}

/** Per problem, a throughput and a bandwidth chart over its timed cases (a case without FLOPs has no throughput). */
export function scalingCharts(points: readonly CasePoint[]): Chart[] {
  const timed = points.filter((p) => p.figures && p.case.bytes > 0)
  return [...groupBy(timed, (p) => p.bench.result.problem).entries()].flatMap(([problem, cases]) =>
    MEASURES.flatMap((m) => {
      const drawable = cases.filter((p) => m.value(p) > 0)
      return drawable.length > 0 ? [scalingChart(problem, m, drawable)] : []
    }),
  )
}
