// The bench-mode reporter: Vitest's default output (files, failures, summary) plus a kernel table per bench, and
// after `vitest bench -u` the baseline files written. At the end of a run it writes the JSON results file and the
// Markdown report (a file, and GitHub's job summary) where the options and the environment ask for them. On an
// interactive terminal a one-line progress indicator replaces Vitest's live summary while benches run.
import fs from 'node:fs'
import path from 'node:path'
import pc from 'picocolors'
import type { SerializedError } from 'vitest'
import type { TestCase, TestModule, TestRunEndReason, Vitest } from 'vitest/node'
import { DefaultReporter } from 'vitest/node'
import { packagePath } from './paths.js'
import { buildResultsFile, serializeResultsFile, type ReportedBench, type ToolVersions } from './report/json.js'
import { renderDeviceHeader, renderKernelResult } from './report/kernel-table.js'
import { writeChartOutputs } from './report/chart-files.js'
import { renderMarkdown } from './report/markdown.js'
import { outputFiles, resolveReportSettings, type OutputFiles, type ReportOptions, type ReportSettings } from './report/options.js'
import type { KernelBenchProgress, KernelBenchResult } from './results.js'
import { writeFileAtomic } from './atomic-write.js'

/** Writes the run's outputs to the files given; returns the files written, in that order. */
export function writeReports(benches: readonly ReportedBench[], files: OutputFiles, tools: ToolVersions, now: Date): string[] {
  const written: string[] = []
  if (files.json) {
    writeFileAtomic(files.json, serializeResultsFile(buildResultsFile(benches, tools, now)))
    written.push(files.json)
  }
  // The charts read the results as the JSON file holds them, so saved files render the same (the `report` command).
  written.push(...writeChartOutputs([{ name: 'this run', file: buildResultsFile(benches, tools, now) }], files))
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

const relativePosix = (root: string, file: string) => path.relative(root, file).split(path.sep).join('/')

/** Every kernel bench of the modules, and every failed test that produced no result; files relative to `root`. */
function reportedBenches(modules: ReadonlyArray<TestModule>, root: string): ReportedBench[] {
  return modules.flatMap((module) =>
    Array.from(module.children.allTests()).flatMap((test): ReportedBench[] => {
      const measured: KernelBenchResult | undefined = test.meta().kernelBench
      const outcome = test.result()
      if (!measured && outcome.state !== 'failed') return []
      const result = measured?.baseline ? { ...measured, baseline: { ...measured.baseline, file: relativePosix(root, measured.baseline.file) } } : measured
      const errors = outcome.state === 'failed' ? outcome.errors.map((e) => e.message) : []
      return [{ file: relativePosix(root, module.moduleId), name: test.name, state: outcome.state, result, errors }]
    }),
  )
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']
const CLEAR_LINE = '\r\x1b[2K'
const REDRAW_MS = 100

function formatElapsed(ms: number): string {
  const seconds = ms / 1000
  if (seconds < 60) return `${seconds.toFixed(1)} s`
  return `${Math.floor(seconds / 60)} min ${String(Math.floor(seconds % 60)).padStart(2, '0')} s`
}

/** A bench on the progress line: the case it runs, once the worker has said, and since when (performance.now()). */
export interface RunningBench {
  name: string
  /** The bench file, relative to the root. */
  file: string
  progress?: KernelBenchProgress
  since: number
}

/** The bench after the worker's latest word: the clock restarts when a new case begins, not when one is repeated. */
export function updateRunningBench(previous: RunningBench | undefined, next: Omit<RunningBench, 'since'>, now: number): RunningBench {
  const sameStep = previous !== undefined && previous.progress?.index === next.progress?.index
  return { ...next, since: sameStep ? previous.since : now }
}

/**
 * The text of the progress line: the first bench running, its case (`case 3/5 '4096x4096x4096'`) and how long that
 * case has run, or before its first case how long the bench has run; other benches running are counted. One
 * character short of `columns`, so the line never wraps and CLEAR_LINE always erases all of it.
 */
export function formatProgressLine(
  running: readonly RunningBench[],
  { now, frame, columns, colors = pc }: { now: number; frame: number; columns: number; colors?: Pick<typeof pc, 'cyan' | 'dim'> },
): string {
  const [first] = running
  if (!first) return ''
  const spinner = SPINNER[frame % SPINNER.length]!
  const tail = `${running.length > 1 ? ` (+${running.length - 1} more)` : ''}  ${formatElapsed(now - first.since)}`
  const step = first.progress ? ` · case ${first.progress.index + 1}/${first.progress.total} '${first.progress.case}'` : ''
  const full = `${first.name}${step} · ${first.file}`
  const room = columns - 1 - spinner.length - 1 - tail.length
  const label = full.length > room ? `${full.slice(0, Math.max(0, room - 1))}…` : full
  return `${colors.cyan(spinner)} ${label}${colors.dim(tail)}`
}

/**
 * The bottom line of an interactive terminal while benches run: which bench, which of its cases, and for how long.
 * Every other write to stdout or stderr clears it first; it comes back on the next tick, once that write has ended
 * its line.
 *
 * The worker sends Vitest's 'test-prepare' event when a kernel bench starts and again before each of its cases,
 * with the case in the task's meta, then 'test-finished' (src/runner.ts). They reach the reporter as
 * onTestCaseReady and onTestCaseResult: that is all the line needs, so no other channel from the worker is used.
 */
class ProgressLine {
  private readonly running = new Map<string, RunningBench>()
  private timer?: NodeJS.Timeout
  private restoreStreams?: () => void
  private write: (text: string) => void = () => {}
  private shown = false
  /** The last write of someone else left the cursor mid-line: drawing now would erase its text. */
  private midLine = false
  private frame = 0

  /** A bench started, or told which case it runs now. */
  update(id: string, bench: Omit<RunningBench, 'since'>): void {
    this.running.set(id, updateRunningBench(this.running.get(id), bench, performance.now()))
    if (!this.timer) this.attach()
    this.draw()
  }

  finish(id: string): void {
    this.running.delete(id)
    if (this.running.size === 0) this.stop()
  }

  stop(): void {
    this.running.clear()
    if (!this.timer) return
    clearInterval(this.timer)
    this.timer = undefined
    this.clear()
    this.restoreStreams?.()
  }

  private attach(): void {
    const streams = [process.stdout, process.stderr]
    const originals = streams.map((stream) => stream.write)
    const writeStdout = originals[0]!.bind(process.stdout)
    this.write = (text) => void writeStdout(text)
    streams.forEach((stream, i) => {
      const original = originals[i]! as (...args: unknown[]) => boolean
      stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
        this.clear()
        this.midLine = typeof chunk === 'string' ? !chunk.endsWith('\n') : chunk.at(-1) !== 0x0a
        return original.call(stream, chunk, ...rest)
      }) as typeof stream.write
    })
    this.restoreStreams = () => streams.forEach((stream, i) => (stream.write = originals[i]!))
    this.timer = setInterval(() => this.draw(), REDRAW_MS).unref()
  }

  private draw(): void {
    if (this.running.size === 0 || this.midLine) return
    const line = formatProgressLine([...this.running.values()], { now: performance.now(), frame: this.frame++, columns: process.stdout.columns || 80 })
    this.write(`${CLEAR_LINE}${line}`)
    this.shown = true
  }

  private clear(): void {
    if (!this.shown) return
    this.shown = false
    this.write(CLEAR_LINE)
  }
}

function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version
}

export class KernelBenchReporter extends DefaultReporter {
  private headerPrinted = false
  private readonly modulesSeen = new Set<TestModule>()
  private readonly settings: ReportSettings
  private readonly progress?: ProgressLine

  constructor(options: ReportOptions = {}) {
    const settings = resolveReportSettings(options)
    // Vitest's live summary and the progress line would both redraw the bottom of the terminal: keep one.
    super({ summary: !settings.progress })
    this.settings = settings
    // isTTY is Vitest's: stdout is a terminal and no CI environment was detected.
    if (settings.progress && this.isTTY) this.progress = new ProgressLine()
  }

  override onInit(ctx: Vitest): void {
    super.onInit(ctx)
    ctx.onClose(() => this.progress?.stop())
  }

  override onTestCaseReady(test: TestCase): void {
    super.onTestCaseReady(test)
    this.progress?.update(test.id, { name: test.name, file: this.relative(test.module.moduleId), progress: test.meta().kernelBenchProgress })
  }

  override onTestCaseResult(test: TestCase): void {
    this.progress?.finish(test.id)
    super.onTestCaseResult(test)
    // Rewrite the JSON, Markdown and chart files after every bench, so a run interrupted later (Ctrl-C, a killed CI job)
    // still leaves the results of every bench that finished. The job summary is appended once, at the end.
    this.modulesSeen.add(test.module)
    this.writeOutputs([...this.modulesSeen], { final: false })
  }

  protected override printTestModule(testModule: TestModule): void {
    super.printTestModule(testModule)
    const written = new Set<string>()
    for (const test of testModule.children.allTests()) {
      const result = test.meta().kernelBench
      if (!result) continue
      if (result.baseline?.written) written.add(result.baseline.file)
      if (!this.headerPrinted && result.device && result.arch) {
        this.log(`\n${renderDeviceHeader(result.device, result.arch, result.ceilings)}`)
        this.headerPrinted = true
      }
      this.log(`\n${renderKernelResult(result)}`)
    }
    // Every kernelBench of a module shares one baseline file: name it once.
    for (const file of written) this.log(pc.dim(`\nbaseline written: ${path.relative(this.ctx.config.root, file)}`))
  }

  override onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): void {
    this.progress?.stop()
    this.writeOutputs(testModules, { final: true })
    super.onTestRunEnd(testModules, unhandledErrors, reason)
  }

  private writeOutputs(testModules: ReadonlyArray<TestModule>, { final }: { final: boolean }): void {
    const root = this.ctx.config.root
    const all = outputFiles(this.settings, process.env, root)
    const files = final ? all : { ...all, stepSummary: undefined }
    if (Object.values(files).every((file) => file === undefined)) return
    const tools: ToolVersions = { vitestKernelBench: packageVersion(), vitest: this.ctx.version, node: process.version }
    try {
      const written = writeReports(reportedBenches(testModules, root), files, tools, new Date())
      if (final) for (const file of written) this.log(pc.dim(`kernel bench report written: ${path.relative(root, file)}`))
    } catch (error) {
      // A CI job that asked for the results must not pass without them.
      this.error(pc.red(`vitest-kernel-bench: could not write the reports: ${(error as Error).message}`))
      process.exitCode = 1
    }
  }
}
