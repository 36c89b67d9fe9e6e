// Every chart of a report, from one or more results files, in the order the HTML page shows them.
import { benchBaseline } from './baseline.js'
import { benchEntries, casePoints, type BenchEntry, type ReportSource } from './cases.js'
import { benchDistribution } from './distribution.js'
import type { Chart } from './plot.js'
import { rooflineCharts } from './roofline.js'
import { scalingCharts } from './scaling.js'
import { benchSpeedOfLight } from './speed-of-light.js'

export interface ReportCharts {
  /** Per GPU and dtype. */
  rooflines: Chart[]
  /** Per problem: throughput, then bandwidth, against size. */
  scaling: Chart[]
  /** Per bench with a result: its sample distributions, its changes against the baseline and what bounds its cases, when it has them. */
  benches: { bench: BenchEntry; charts: Chart[] }[]
}

/** Every chart once, in page order. */
export function allCharts(charts: ReportCharts): Chart[] {
  return [...charts.rooflines, ...charts.scaling, ...charts.benches.flatMap((b) => b.charts)]
}

/** Benches of the same name (in two files, or two sources) would give charts the same id: number the repeats. */
function makeIdsUnique(charts: readonly Chart[]): void {
  const seen = new Map<string, number>()
  for (const chart of charts) {
    const count = (seen.get(chart.id) ?? 0) + 1
    seen.set(chart.id, count)
    if (count > 1) chart.id = `${chart.id}-${count}`
  }
}

export function reportCharts(sources: readonly ReportSource[]): ReportCharts {
  const benches = benchEntries(sources)
  const points = casePoints(benches)
  const charts: ReportCharts = {
    rooflines: rooflineCharts(points),
    scaling: scalingCharts(points),
    benches: benches.map((bench) => ({
      bench,
      charts: [benchDistribution(bench, points), benchBaseline(bench, points), benchSpeedOfLight(bench, points)].filter((c) => c !== undefined),
    })),
  }
  makeIdsUnique(allCharts(charts))
  return charts
}
