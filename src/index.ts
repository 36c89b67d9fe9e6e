// Public API: kernelBench() registers a CUDA kernel problem as a Vitest benchmark (vitest bench) and as a
// correctness test (vitest run); kernelProperty() checks a solution on random shapes (vitest run).
import { getCurrentSuite, type Test } from '@vitest/runner'
import { inject } from 'vitest'
import { runKernelBench, type KernelBenchSpec } from './bench.js'
import { kernelMode, registerTest, withModifiers, type Modifiers } from './modifiers.js'
import { SETTINGS_KEY, shared } from './registry.js'
import { failureMessage } from './results.js'

export type { KernelBenchSpec, PluginSettings } from './bench.js'
export type { CaseResult, CaseVerdict, KernelBenchProgress, KernelBenchResult } from './results.js'
export type { BaselineOptions } from './baseline/guard.js'
export type { Floors } from './baseline/verdict.js'
export type { Problem, ProblemDefinition, TestCase, Tolerance, ReferenceSpec, ShapeSpace } from './problem.js'
export type { ParamSpec, ScalarCType } from './signature.js'
export type { Dtype } from './dtype.js'
export type { MeasureOptions, FlushMode, PaddingMode } from './options.js'
export { defineProblem } from './problem.js'
export { kernelProperty, type KernelPropertySpec } from './verify/property.js'

function register(this: Modifiers, name: string, spec: KernelBenchSpec): void {
  if (kernelMode('kernelBench') === 'benchmark') {
    // Like Vitest's bench(): a task without a function, run by the plugin's runner (src/runner.ts).
    const task: Test = getCurrentSuite().task(name, { ...this, meta: {} })
    if (!this.todo && task.mode === 'todo') task.mode = 'run'
    shared().specs.set(task, { name, spec })
    return
  }
  const test = registerTest(this, name, async (context) => {
    const result = await runKernelBench(name, spec, { file: context.task.file.filepath, mode: 'verify', settings: inject(SETTINGS_KEY) })
    context.task.meta.kernelBench = result
    if (result.skipped) context.skip(result.skipped)
    const failure = failureMessage(result)
    if (failure) throw new Error(failure)
  })
  shared().specs.set(test, { name, spec }) // for the runner, which starts its compiles once the file is collected
}

export const kernelBench = withModifiers(register)
