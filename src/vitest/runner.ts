// The Vitest runner the plugin installs under Vitest 4 only (Vitest 5 has no benchmark runner: there a kernelBench
// is an ordinary test, src/index.ts). Under `vitest bench` it registers kernelBench entries as benchmark tasks,
// starts compiling all of a file's entries as soon as the file is collected, runs them through the engine, judges
// them against their baselines and floors (the CI guard) and fills Vitest's benchmark result and task meta; plain
// bench() tasks still go to tinybench. Under `vitest run` it is Vitest's own runner (kernelBench registers ordinary
// tests there).
import { BenchmarkRunner, inject, TestRunner } from 'vitest'
import type { RunnerTask as Task, RunnerTaskEventPack, RunnerTestCase as Test, RunnerTestSuite as Suite, SerializedConfig, VitestTestRunner } from 'vitest'
import { startCompiles } from './compile-bench.js'
import type { ResolvedSpec } from './resolve-spec.js'
import { geometricMean } from '../shared/stats.js'
import { runGuardedBench } from './guarded-bench.js'
import type { Modifiers } from './registry.js'
import { SETTINGS_KEY, shared } from './registry.js'
import type { KernelBenchResult } from '../shared/results.js'
import { taskState } from './task-state.js'

function runnable(task: Task): boolean {
  return task.mode === 'run' || task.mode === 'queued'
}

/** Vitest's benchmark result (times in ms) summarising all cases: the geometric mean of their medians. */
function vitestBenchmark(result: KernelBenchResult) {
  const timed = result.cases.flatMap((c) => (c.summary ? [c.summary] : []))
  if (timed.length === 0) return undefined
  const median = geometricMean(timed.map((s) => s.median))
  return {
    name: result.bench,
    rank: 0,
    rme: 0,
    samples: [] as number[],
    sampleCount: timed.reduce((n, s) => n + s.n, 0),
    median,
    mean: geometricMean(timed.map((s) => s.mean)),
    min: Math.min(...timed.map((s) => s.min)),
    max: Math.max(...timed.map((s) => s.max)),
    hz: 1000 / median,
    period: median,
    totalTime: timed.reduce((t, s) => t + s.mean * s.n, 0),
  }
}

function registerBenchTask(modifiers: Modifiers, name: string, spec: ResolvedSpec): void {
  const task: Test = TestRunner.getCurrentSuite().task(name, { ...modifiers, meta: {} })
  if (!modifiers.todo && task.mode === 'todo') task.mode = 'run'
  shared().specs.set(task, { name, spec })
}

/** The kernelBench tasks of a collected suite that will run (filters, .skip and .only applied). */
function runnableKernelTasks(suite: Suite): Test[] {
  return suite.tasks.flatMap((task) => {
    if (!runnable(task)) return []
    if (task.type === 'suite') return runnableKernelTasks(task)
    return shared().specs.has(task as Test) ? [task as Test] : []
  })
}

class KernelBenchmarkRunner extends BenchmarkRunner {
  /** Set on every runner by Vitest's worker (VitestRunner's optional hook), which sends the updates to the reporters. */
  declare onTaskUpdate?: VitestTestRunner['onTaskUpdate']

  /** Starts compiling every kernelBench of the file that will run: the first one times while the others compile. */
  onCollected(files: Suite[]): void {
    const settings = inject(SETTINGS_KEY)
    for (const task of files.flatMap(runnableKernelTasks)) {
      const { name, spec } = shared().specs.get(task)!
      startCompiles(name, spec, task.file.filepath, settings)
    }
  }

  override async runSuite(suite: Suite): Promise<void> {
    await this.runKernelTasks(suite)
    await super.runSuite(suite)
  }

  private async runKernelTasks(suite: Suite): Promise<void> {
    for (const task of suite.tasks) {
      if (task.type === 'suite') {
        if (!runnable(task)) continue
        task.result ??= { state: 'run', startTime: Date.now() }
        await this.runKernelTasks(task)
        if (task.result.state === 'run') task.result.state = task.tasks.some((t) => t.result?.state === 'fail') ? 'fail' : 'pass'
        continue
      }
      const entry = shared().specs.get(task as Test)
      if (entry && runnable(task)) await this.runKernelTask(task as Test, entry.name, entry.spec)
    }
  }

  /** Sends the task's state and meta to the reporters now (Vitest's own updates are batched the same way). */
  private report(task: Test, event: RunnerTaskEventPack[1]): Promise<void> | undefined {
    return this.onTaskUpdate?.([[task.id, task.result, task.meta]], [[task.id, event, undefined]])
  }

  private async runKernelTask(task: Test, name: string, spec: ResolvedSpec): Promise<void> {
    const start = performance.now()
    task.result = { state: 'run', startTime: Date.now() }
    await this.report(task, 'test-prepare')
    try {
      const result = await runGuardedBench(
        name,
        spec,
        {
          file: task.file.filepath,
          settings: inject(SETTINGS_KEY),
          root: this.config.root,
          updateBaselines: this.config.snapshotOptions.updateSnapshot === 'all', // vitest bench -u
          // 'test-prepare' carries the task's meta to the reporter's onTestCaseReady (Vitest's built-in reporters
          // ignore a repeat): sent again for each case, it moves the progress line on (src/reporter.ts).
          onCase: (index, total, caseName) => {
            task.meta.kernelBenchProgress = { case: caseName, index, total }
            void this.report(task, 'test-prepare')
          },
        },
        task.meta,
      )
      const state = taskState(result)
      if (state.state === 'skip') {
        // The reason travels in task.meta.kernelBench.skipped; the reporter prints it.
        task.mode = 'skip'
        task.result = { ...task.result, state: 'skip' }
      } else if (state.state === 'fail') {
        task.result = { ...task.result, state: 'fail', errors: [{ name: 'KernelBenchFailure', message: state.message }] }
      } else {
        task.result = { ...task.result, state: 'pass', benchmark: vitestBenchmark(result) as never }
      }
    } catch (error) {
      const e = error as Error
      task.result = { ...task.result, state: 'fail', errors: [{ name: e.name, message: e.message, stack: e.stack }] }
    }
    delete task.meta.kernelBenchProgress // the run is over: the results (JSON, Markdown) should not carry it
    task.result = { ...task.result, duration: performance.now() - start }
    await this.report(task, 'test-finished')
  }
}

/**
 * Vitest constructs the configured runner for both `vitest run` and `vitest bench`; a constructor that returns
 * an object makes `new` yield that object, so this picks the right runner for Vitest's mode ('benchmark' under
 * `vitest bench`).
 */
export default function KernelBenchRunner(config: SerializedConfig) {
  if (config.mode !== 'benchmark') return new TestRunner(config)
  shared().registerBenchTask = registerBenchTask
  return new KernelBenchmarkRunner(config)
}
