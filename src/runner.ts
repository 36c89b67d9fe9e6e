// The Vitest runner the plugin installs. In both modes it starts compiling every kernelBench that will run as soon as
// its file is collected. In bench mode it runs kernelBench tasks through the engine, judges them against their
// baselines and floors (the CI guard) and fills Vitest's benchmark result and task meta; plain bench() tasks still
// go to tinybench. In test mode it is Vitest's own runner otherwise (kernelBench registers ordinary tests there).
import { updateTask, type File, type Suite, type Task, type Test } from '@vitest/runner'
import { getTests } from '@vitest/runner/utils'
import { BenchmarkRunner, inject, TestRunner } from 'vitest'
import type { SerializedConfig } from 'vitest'
import { guardResult } from './baseline/guard.js'
import { resolveSpec, runResolvedBench, startCompiles, type KernelBenchSpec } from './bench.js'
import { geometricMean } from './engine/stats.js'
import { SETTINGS_KEY, shared } from './registry.js'
import { failureMessage, type KernelBenchResult } from './results.js'

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

/** Starts compiling every kernelBench of the collected files that will run (filters and .skip applied). */
function startCollectedCompiles(files: File[]): void {
  const settings = inject(SETTINGS_KEY)
  for (const test of files.flatMap((file) => getTests(file))) {
    const entry = shared().specs.get(test)
    if (entry && runnable(test)) startCompiles(entry.name, entry.spec, test.file.filepath, settings)
  }
}

class KernelBenchmarkRunner extends BenchmarkRunner {
  onCollected(files: File[]): void {
    startCollectedCompiles(files)
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

  private async runKernelTask(task: Test, name: string, spec: KernelBenchSpec): Promise<void> {
    const start = performance.now()
    task.result = { state: 'run', startTime: Date.now() }
    updateTask('test-prepare', task, this)
    try {
      const settings = inject(SETTINGS_KEY)
      const resolved = resolveSpec(spec, settings)
      const measured = await runResolvedBench(name, resolved, {
        file: task.file.filepath,
        mode: 'bench',
        settings,
        // 'test-prepare' carries the task's meta to the reporter's onTestCaseReady (Vitest's built-in reporters
        // ignore a repeat): sent again for each case, it moves the progress line on (src/reporter.ts).
        onCase: (index, total, caseName) => {
          task.meta.kernelBenchProgress = { case: caseName, index, total }
          updateTask('test-prepare', task, this)
        },
      })
      task.meta.kernelBench = measured // the table still shows the numbers if the baseline file is unreadable
      // The CI guard (docs/architecture.md): regressions against the baseline, violated floors and a SOL above the
      // roofline fail like wrong answers.
      const result = guardResult(measured, {
        benchFile: task.file.filepath,
        root: this.config.root,
        rules: resolved.guard,
        settings: settings.baseline,
        update: this.config.snapshotOptions.updateSnapshot === 'all', // vitest bench -u
      })
      task.meta.kernelBench = result
      const failure = failureMessage(result)
      if (result.skipped) {
        // The reason travels in task.meta.kernelBench.skipped; the reporter prints it.
        task.mode = 'skip'
        task.result = { ...task.result, state: 'skip' }
      } else if (failure) {
        task.result = { ...task.result, state: 'fail', errors: [{ name: 'KernelBenchFailure', message: failure }] }
      } else {
        task.result = { ...task.result, state: 'pass', benchmark: vitestBenchmark(result) as never }
      }
    } catch (error) {
      const e = error as Error
      task.result = { ...task.result, state: 'fail', errors: [{ name: e.name, message: e.message, stack: e.stack }] }
    }
    delete task.meta.kernelBenchProgress // the run is over: the results (JSON, Markdown) should not carry it
    task.result = { ...task.result, duration: performance.now() - start }
    updateTask('test-finished', task, this)
  }
}

/**
 * Vitest constructs the configured runner for both `vitest run` and `vitest bench`; a constructor that returns
 * an object makes `new` yield that object, so this picks the right runner for the mode.
 */
class KernelTestRunner extends TestRunner {
  onCollected(files: File[]): void {
    startCollectedCompiles(files)
  }
}

export default function KernelBenchRunner(config: SerializedConfig) {
  shared().mode = config.mode
  return config.mode === 'benchmark' ? new KernelBenchmarkRunner(config) : new KernelTestRunner(config)
}
