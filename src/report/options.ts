// The reporter's options (kernelBenchPlugin passes them through) and where its outputs go, given the environment.
import path from 'node:path'

export interface ReportOptions {
  /**
   * Also write the Markdown report to this file (relative to the Vitest root), replacing it each run. The report
   * is appended to the file named by GITHUB_STEP_SUMMARY whenever that variable is set (see `stepSummary`).
   */
  markdown?: string
  /** Write every result to this JSON file (relative to the root; docs/result-schema.md). KERNELBENCH_JSON overrides it. */
  json?: string
  /** Append the Markdown report to GITHUB_STEP_SUMMARY when it is set (default true). */
  stepSummary?: boolean
  /** A one-line progress indicator while a bench runs (default true; only ever on an interactive terminal, never in CI). */
  progress?: boolean
  /** Write the charts (roofline, scaling, samples, baseline) as one self-contained HTML page here. KERNELBENCH_HTML overrides it. */
  html?: string
  /** Write each chart as an SVG file into this directory (relative to the root), e.g. next to the Markdown report. */
  svg?: string
}

export type ReportSettings = Required<Pick<ReportOptions, 'stepSummary' | 'progress'>> & Pick<ReportOptions, 'markdown' | 'json' | 'html' | 'svg'>

/** Defaults filled in; a bad value throws with the option's name. */
export function resolveReportSettings(options: ReportOptions = {}): ReportSettings {
  for (const key of ['markdown', 'json', 'html', 'svg'] as const) {
    const value = options[key]
    if (value !== undefined && (typeof value !== 'string' || value === '')) {
      throw new Error(`option ${key} must be a non-empty file path (got ${JSON.stringify(value)})`)
    }
  }
  for (const key of ['stepSummary', 'progress'] as const) {
    const value = options[key]
    if (value !== undefined && typeof value !== 'boolean') throw new Error(`option ${key} must be a boolean (got ${String(value)})`)
  }
  return { markdown: options.markdown, json: options.json, html: options.html, svg: options.svg, stepSummary: options.stepSummary ?? true, progress: options.progress ?? true }
}

/** The plugin's options split into the reporter's (checked) and the rest. */
export function splitReportOptions<T extends ReportOptions>(options: T): { report: ReportOptions; rest: Omit<T, keyof ReportOptions> } {
  const { markdown, json, stepSummary, progress, html, svg, ...rest } = options
  const report: ReportOptions = { markdown, json, stepSummary, progress, html, svg }
  resolveReportSettings(report) // a bad option fails when the config loads
  return { report, rest }
}

export interface OutputFiles {
  /** The JSON results file, replaced atomically. */
  json?: string
  /** The Markdown report file, replaced atomically. */
  markdown?: string
  /** GitHub's job summary: the Markdown report is appended, never overwritten. */
  stepSummary?: string
  /** The HTML page of charts, replaced atomically. */
  html?: string
  /** The directory of chart SVG files, each replaced atomically. */
  svg?: string
}

/** Absolute paths of the outputs of a run: options resolved against the root, KERNELBENCH_JSON over `json`, KERNELBENCH_HTML over `html`. */
export function outputFiles(settings: ReportSettings, env: NodeJS.ProcessEnv, root: string): OutputFiles {
  const resolve = (file: string | undefined) => (file ? path.resolve(root, file) : undefined)
  return {
    json: resolve(env.KERNELBENCH_JSON || settings.json),
    markdown: resolve(settings.markdown),
    stepSummary: settings.stepSummary ? resolve(env.GITHUB_STEP_SUMMARY) : undefined,
    html: resolve(env.KERNELBENCH_HTML || settings.html),
    svg: resolve(settings.svg),
  }
}
