// Writes the charts of one or more results files: the HTML page, and each chart as an SVG file in a directory (for
// a PR comment or a job summary). Every file is replaced atomically, as the reporter rewrites them after each bench.
import path from 'node:path'
import { writeFileAtomic } from '../cache/atomic-write.js'
import type { ReportSource } from './charts/cases.js'
import { allCharts, reportCharts } from './charts/index.js'
import { renderHtml } from './html.js'

export interface ChartOutputs {
  /** The HTML page. */
  html?: string
  /** The directory of SVG files, one per chart, named by chart id ('roofline-nvidia-h200-float32.svg'). */
  svg?: string
}

/** Writes the outputs asked for; returns the HTML file and the SVG directory written, in that order. */
export function writeChartOutputs(sources: readonly ReportSource[], outputs: ChartOutputs): string[] {
  if (!outputs.html && !outputs.svg) return []
  const charts = reportCharts(sources)
  const written: string[] = []
  if (outputs.html) {
    writeFileAtomic(outputs.html, renderHtml(sources, charts))
    written.push(outputs.html)
  }
  if (outputs.svg) {
    for (const chart of allCharts(charts)) writeFileAtomic(path.join(outputs.svg, `${chart.id}.svg`), `${chart.svg}\n`)
    written.push(outputs.svg)
  }
  return written
}
