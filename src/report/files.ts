// Writing the run's report files: the JSON results file, the charts (HTML page, SVG files) and the Markdown report
// (a file, and GitHub's job summary).
import fs from 'node:fs'
import { writeFileAtomic } from '../cache/atomic-write.js'
import { writeChartOutputs } from './chart-files.js'
import { buildResultsFile, serializeResultsFile, type ReportedBench, type ToolVersions } from './json.js'
import { renderMarkdown } from './markdown.js'
import type { OutputFiles } from './options.js'
import type { RunTime } from './phases.js'

/** Writes the run's outputs to the files given; returns the files written, in that order. */
export function writeReports(benches: readonly ReportedBench[], files: OutputFiles, tools: ToolVersions, now: Date, time?: RunTime): string[] {
  const written: string[] = []
  const results = buildResultsFile(benches, tools, now, time)
  if (files.json) {
    writeFileAtomic(files.json, serializeResultsFile(results))
    written.push(files.json)
  }
  // The charts read the results as the JSON file holds them, so saved files render the same (the `report` command).
  written.push(...writeChartOutputs([{ name: 'this run', file: results }], files))
  if (!files.markdown && !files.stepSummary) return written
  const markdown = renderMarkdown(benches)
  if (files.markdown) {
    writeFileAtomic(files.markdown, markdown)
    written.push(files.markdown)
  }
  if (files.stepSummary) {
    // GitHub collects the job summary from this file: other steps and earlier runs may have written to it.
    fs.appendFileSync(files.stepSummary, markdown)
    written.push(files.stepSummary)
  }
  return written
}
