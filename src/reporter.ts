// Vitest's default reporter, extended. KernelTestReporter (`vitest run` under Vitest 4) prints under each file why its
// tests were skipped, which Vitest itself shows only in verbose output. KernelBenchReporter (`vitest bench`): Vitest's
// default output (files, failures, summary) plus a kernel table per bench, and after `vitest bench -u` the baseline
// files written. At the end of a run it writes the JSON results file and the Markdown report (a file, and GitHub's
// job summary) where the options and the environment ask for them. On an interactive terminal a one-line progress
// indicator (src/report/progress-line.ts) replaces Vitest's live summary while benches run. Under Vitest 5, which has
// one list of reporters for tests and benchmarks, KernelBenchReporter does both: tables for the files of benchmark
// projects, skip reasons for the others. A merge of sharded runs (`vitest bench --merge-reports`) replays the results
// that each host's blob recorded through the same hooks, so it prints and writes what a single run would.
import fs from 'node:fs'
import path from 'node:path'
import pc from 'picocolors'
import type { RunnerTask, RunnerTestFile, SerializedError, TestArtifact } from 'vitest'
import type { TestCase, TestModule, TestRunEndReason, TestSuite, Vitest } from 'vitest/node'
import { DefaultReporter } from 'vitest/node'
import { packagePath } from './spec/paths.js'
import { writeReports } from './report/files.js'
import type { ReportedBench, ToolVersions } from './report/json.js'
import { deviceLine, renderDeviceHeader, renderKernelResult } from './report/kernel-table.js'
import { outputFiles, resolveReportSettings, type ReportOptions, type ReportSettings } from './report/options.js'
import { CASE_ARTIFACT } from './vitest/registry.js'
import { countLine, gpuLine, runPhases, timeLine, type RunTime } from './report/phases.js'
import { ProgressLine } from './report/progress-line.js'
import type { KernelBenchProgress, KernelBenchResult } from './shared/results.js'

/**
 * A path recorded by the host that ran the module (absolute there) relative to `root` on this host, '/'-separated.
 * It is taken relative to the module, whose path relative to its project's root the module also records, so the
 * answer is the same on every host: `--merge-reports` replays modules run in other hosts' checkouts.
 */
function pathFromRoot(module: TestModule, recorded: string, root: string): string {
  const projectRoot = path.relative(root, module.project.config.root)
  const fromModule = path.relative(path.dirname(module.moduleId), recorded)
  return path.join(projectRoot, path.dirname(module.relativeModuleId), fromModule).split(path.sep).join('/')
}

/** Every kernel bench of the modules, and every failed test that produced no result; files relative to `root`. */
function reportedBenches(modules: ReadonlyArray<TestModule>, root: string): ReportedBench[] {
  return modules.flatMap((module) =>
    Array.from(module.children.allTests()).flatMap((test): ReportedBench[] => {
      const measured: KernelBenchResult | undefined = test.meta().kernelBench
      const outcome = test.result()
      if (!measured && outcome.state !== 'failed') return []
      const result = measured?.baseline ? { ...measured, baseline: { ...measured.baseline, file: pathFromRoot(module, measured.baseline.file, root) } } : measured
      const errors = outcome.state === 'failed' ? outcome.errors.map((e) => e.message) : []
      return [{ file: pathFromRoot(module, module.moduleId, root), name: test.name, state: outcome.state, result, errors }]
    }),
  )
}

/**
 * Why a file's tests were skipped, one line per reason: each skipped suite that is not inside another (its name
 * says why, as in this repository's GPU tests) and each distinct note of a skipped test (`context.skip(note)`, as a
 * kernelBench without a GPU gives).
 */
export function skipReasons(module: TestModule): string[] {
  const lines: string[] = []
  const visit = (children: TestModule['children'] | TestSuite['children']) => {
    for (const child of children) {
      if (child.type === 'suite' && child.state() === 'skipped' && child.options.mode === 'skip') {
        const tests = Array.from(child.children.allTests()).length
        lines.push(`${child.name} (${tests} test${tests === 1 ? '' : 's'})`)
      } else if (child.type === 'suite') visit(child.children)
    }
  }
  visit(module.children)
  const notes = new Map<string, number>()
  for (const test of module.children.allTests()) {
    const result = test.result()
    if (result.state === 'skipped' && result.note) notes.set(result.note, (notes.get(result.note) ?? 0) + 1)
  }
  for (const [note, count] of notes) lines.push(`${count} skipped: ${note}`)
  return lines
}

/** Vitest 5 marks the config of the benchmark project it adds next to each project (`benchmark.enabled`). */
export function isBenchmarkProject(config: object): boolean {
  return (config as { benchmark?: { enabled?: boolean } }).benchmark?.enabled === true
}

/** The skip reasons to print under a file, unless Vitest already shows each skipped test with its note. */
function skipReasonLines(testModule: TestModule, shown: { renderSucceed: boolean; hideSkippedTests: boolean }): string[] {
  // Where Vitest prints every test (a run of one file, a failed file) each skipped one already shows its note.
  if (shown.renderSucceed || testModule.state() === 'failed' || shown.hideSkippedTests) return []
  return skipReasons(testModule).map((reason) => pc.yellow(`   ↓ ${reason}`))
}

type DefaultReporterOptions = NonNullable<ConstructorParameters<typeof DefaultReporter>[0]>

/** Vitest's default reporter, but a skipped test is never shown as passed. */
class SkipAwareReporter extends DefaultReporter {
  /**
   * Vitest marks every test slower than slowTestThreshold with ✓, a skipped one too, and a kernelBench without a GPU
   * is slow and skipped (it compiles first): such a test keeps Vitest's skipped mark, ↓.
   */
  protected override printTestCase(moduleState: Parameters<DefaultReporter['printTestCase']>[0], test: TestCase): void {
    const { duration = 0 } = test.diagnostic() ?? {}
    const task = this.ctx.state.idMap.get(test.id)
    if (!task || test.result().state !== 'skipped' || duration <= this.ctx.config.slowTestThreshold) return super.printTestCase(moduleState, test)
    this.log(` ${this.getTestIndentation(task)}${pc.yellow('↓')} ${this.getTestName(task)}${this.getTestCaseSuffix(test)}`)
  }
}

/** `vitest run`'s reporter (the plugin puts it where Vitest's default one would be): the default, plus skip reasons. */
export class KernelTestReporter extends SkipAwareReporter {
  protected override printTestModule(testModule: TestModule): void {
    super.printTestModule(testModule)
    const shown = { renderSucceed: this.renderSucceed, hideSkippedTests: this.ctx.config.hideSkippedTests }
    for (const line of skipReasonLines(testModule, shown)) this.log(line)
  }
}

function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version
}

/** Whether a task is, or holds, a bench ranked first in its group: what Vitest 4's bench summary lists. */
function hasRankedFirst(task: RunnerTask): boolean {
  return task.type === 'suite' ? task.tasks.some(hasRankedFirst) : task.result?.benchmark?.rank === 1
}

export class KernelBenchReporter extends SkipAwareReporter {
  /** What the last device header said, but the clock (it changes while a run goes on), to print it again for another GPU. */
  private headerGpu?: string
  private readonly modulesSeen = new Set<TestModule>()
  private readonly settings: ReportSettings
  private progress?: ProgressLine
  /** When the run started, and the time this reporter has spent on tables and files since (the run's time account). */
  private runStart = performance.now()
  private reportingMs = 0
  /** Vitest 5: this reporter also reports the test files of the run (see isBench). */
  private readonly testsToo: boolean

  constructor(options: ReportOptions = {}, { testsToo = false, ...defaults }: DefaultReporterOptions & { testsToo?: boolean } = {}) {
    const settings = resolveReportSettings(options)
    // Vitest's live summary and the progress line would both redraw the bottom of the terminal: keep one.
    super({ ...defaults, summary: !settings.progress && defaults.summary !== false })
    this.settings = settings
    this.testsToo = testsToo
  }

  /**
   * Vitest 4 ends `vitest bench` with a summary of each group's fastest plain bench() against the others. A kernel
   * bench is never ranked (its cases do not make one comparable figure), so without plain bench() tasks the summary
   * would be its heading alone: printed only when it lists something.
   */
  override reportBenchmarkSummary(files: RunnerTestFile[]): void {
    if (files.some(hasRankedFirst)) super.reportBenchmarkSummary(files)
  }

  override onInit(ctx: Vitest): void {
    this.runStart = performance.now()
    super.onInit(ctx)
    // isTTY is Vitest's: stdout is a terminal and no CI environment was detected. A merge (`--merge-reports`) replays
    // recorded results: nothing runs.
    if (this.settings.progress && this.isTTY && !ctx.config.mergeReports) this.progress = new ProgressLine()
    ctx.onClose(() => this.progress?.stop())
  }

  /** Whether a file's results are benchmarks: every file under Vitest 4's `vitest bench`, a benchmark project's under Vitest 5. */
  private isBench(testModule: TestModule): boolean {
    return !this.testsToo || isBenchmarkProject(testModule.project.config)
  }

  /** The bench on the progress line: the test, and the case it runs once the worker has said. */
  private showRunning(test: TestCase, progress: KernelBenchProgress | undefined): void {
    if (this.isBench(test.module)) this.progress?.update(test.id, { name: test.name, file: this.relative(test.module.moduleId), progress })
  }

  /** A bench starts, and under Vitest 4 starts each case: the worker sends the case in the task's meta (src/vitest/runner.ts). */
  override onTestCaseReady(test: TestCase): void {
    super.onTestCaseReady(test)
    this.showRunning(test, test.meta().kernelBenchProgress)
  }

  /** Under Vitest 5 a bench records each case it starts as an artifact of its test (src/index.ts). */
  onTestCaseArtifactRecord(test: TestCase, artifact: TestArtifact): void {
    if (artifact.type === CASE_ARTIFACT) this.showRunning(test, artifact.progress)
  }

  override onTestCaseResult(test: TestCase): void {
    this.progress?.finish(test.id)
    super.onTestCaseResult(test)
    if (!this.isBench(test.module)) return
    // Rewrite the JSON, Markdown and chart files after every bench, so a run interrupted later (Ctrl-C, a killed CI job)
    // still leaves the results of every bench that finished. The job summary is appended once, at the end.
    this.modulesSeen.add(test.module)
    this.writeOutputs([...this.modulesSeen], { final: false })
  }

  protected override printTestModule(testModule: TestModule): void {
    super.printTestModule(testModule)
    const start = performance.now()
    this.printKernelTables(testModule)
    this.reportingMs += performance.now() - start
  }

  private printKernelTables(testModule: TestModule): void {
    if (!this.isBench(testModule)) {
      const shown = { renderSucceed: this.renderSucceed, hideSkippedTests: this.ctx.config.hideSkippedTests }
      for (const line of skipReasonLines(testModule, shown)) this.log(line)
      return
    }
    const written = new Set<string>()
    for (const test of testModule.children.allTests()) {
      const result = test.meta().kernelBench
      if (!result) continue
      if (result.baseline?.written) written.add(result.baseline.file)
      // A header before the first table, and again where a merge of several hosts' runs moves on to another GPU.
      const { device, arch, devices } = result
      const gpu = device && arch ? deviceLine({ ...device, startSmClockMHz: NaN }, arch, devices) : undefined
      if (device && arch && gpu !== this.headerGpu) {
        this.log(`\n${renderDeviceHeader(device, arch, result, devices)}`)
        this.headerGpu = gpu
      }
      this.log(`\n${renderKernelResult(result)}`)
    }
    // Every kernelBench of a module shares one baseline file: name it once.
    for (const file of written) this.log(pc.dim(`\nbaseline written: ${pathFromRoot(testModule, file, this.ctx.config.root)}`))
  }

  override onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): void {
    this.progress?.stop()
    const results = this.kernelResults(testModules)
    const time = this.runTime(results)
    this.writeOutputs(testModules, { final: true, time })
    if (time) {
      this.log(pc.dim(timeLine(time)))
      const gpus = gpuLine(results, time)
      if (gpus) this.log(pc.dim(gpus))
    }
    const benches = testModules.filter((m) => this.isBench(m)).flatMap((m) => Array.from(m.children.allTests(), (test) => test.result().state))
    if (benches.length > 0) this.log(countLine(benches))
    super.onTestRunEnd(testModules, unhandledErrors, reason)
  }

  /** Where this run's time went; none for a run without kernel benches, or a merge (nothing ran here). */
  private runTime(results: readonly KernelBenchResult[]): RunTime | undefined {
    if (this.ctx.config.mergeReports) return undefined
    if (results.length === 0) return undefined
    return { startedAtMs: performance.timeOrigin + this.runStart, wallMs: performance.now() - this.runStart, reportingMs: this.reportingMs, phases: runPhases(results) }
  }

  private kernelResults(testModules: ReadonlyArray<TestModule>): KernelBenchResult[] {
    return testModules
      .filter((m) => this.isBench(m))
      .flatMap((m) => Array.from(m.children.allTests(), (test) => test.meta().kernelBench))
      .filter((result): result is KernelBenchResult => result !== undefined)
  }

  private writeOutputs(allModules: ReadonlyArray<TestModule>, options: { final: boolean; time?: RunTime }): void {
    const start = performance.now()
    this.writeResultFiles(allModules, options)
    this.reportingMs += performance.now() - start
  }

  private writeResultFiles(allModules: ReadonlyArray<TestModule>, { final, time }: { final: boolean; time?: RunTime }): void {
    const testModules = allModules.filter((m) => this.isBench(m))
    // A Vitest 5 run without benchmark projects (`vitest run`) has no kernel results to write.
    if (this.testsToo && testModules.length === 0) return
    const root = this.ctx.config.root
    const all = outputFiles(this.settings, process.env, root)
    const files = final ? all : { ...all, stepSummary: undefined }
    if (Object.values(files).every((file) => file === undefined)) return
    const tools: ToolVersions = { vitestKernelBench: packageVersion(), vitest: this.ctx.version, node: process.version }
    try {
      const written = writeReports(reportedBenches(testModules, root), files, tools, new Date(), time)
      if (final) for (const file of written) this.log(pc.dim(`kernel bench report written: ${path.relative(root, file)}`))
    } catch (error) {
      // A CI job that asked for the results must not pass without them.
      this.error(pc.red(`vitest-kernel-bench: could not write the reports: ${(error as Error).message}`))
      process.exitCode = 1
    }
  }
}
