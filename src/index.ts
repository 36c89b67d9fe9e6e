// Public API: kernelBench() registers a CUDA kernel problem as a Vitest benchmark (vitest bench) and as a
// correctness test (vitest run); kernelProperty() checks a solution on random shapes (vitest run).
import { inject, recordArtifact, type RunnerTestCase } from 'vitest'
import type { BenchContext } from './vitest/prepare-bench.js'
import { resolveSpec, type KernelBenchSpec } from './vitest/resolve-spec.js'
import { runResolvedBench } from './vitest/run-bench.js'
import type { Dtype } from './spec/dtype.js'
import { runGuardedBench } from './vitest/guarded-bench.js'
import { registerTest, runContext, withModifiers } from './vitest/modifiers.js'
import { CASE_ARTIFACT, SETTINGS_KEY, shared, type Modifiers } from './vitest/registry.js'
import { settleTest } from './vitest/task-state.js'

export type { PluginSettings } from './vitest/plugin-settings.js'
export type { KernelBenchSpec } from './vitest/resolve-spec.js'
// registry.ts also declares the kernel tests' meta and artifact to Vitest's types: exported from here, its declarations
// reach every program that imports the package.
export type { KernelBenchCaseArtifact } from './vitest/registry.js'
export type { CaseResult, CaseVerdict, KernelBenchProgress, KernelBenchResult } from './shared/results.js'
export type { BaselineOptions } from './baseline/guard.js'
export type { Floors } from './baseline/verdict.js'
export type { DecodeSpec, Problem, ProblemDefinition, TestCase, Tolerance, ReferenceSpec, ShapeSpace } from './spec/problem.js'
export type { InputRange, ParamSpec, ScalarCType } from './spec/signature.js'
export type { Dtype } from './spec/dtype.js'
export type { MeasureOptions, FlushMode, PaddingMode } from './spec/options.js'
export { defineProblem } from './spec/problem.js'
export { kernelProperty, type KernelPropertySpec } from './vitest/property.js'
export { kernelMatchers, measureKernel } from './vitest/matchers.js'

/**
 * Records each case on the test as it begins (a KernelBenchCaseArtifact), for the reporter's progress line; `recorded`
 * settles once every record has reached the reporters.
 */
function caseRecorder(task: RunnerTestCase): { onCase: NonNullable<BenchContext['onCase']>; recorded: () => Promise<unknown> } {
  const records: Promise<unknown>[] = []
  return {
    onCase: (index, total, caseName) => void records.push(recordArtifact(task, { type: CASE_ARTIFACT, progress: { case: caseName, index, total } })),
    recorded: () => Promise.all(records),
  }
}

function register(this: Modifiers, name: string, spec: KernelBenchSpec): void {
  const run = runContext('kernelBench')
  const settings = inject(SETTINGS_KEY)
  // Checked here, as the file is collected: a wrong argument fails the file at its line, GPU or not.
  const resolved = resolveSpec(spec, settings, `kernelBench('${name}')`)
  const registerBenchTask = shared().registerBenchTask
  // Vitest 4's `vitest bench`: like its bench(), a task without a function, run by the plugin's runner.
  if (run.command === 'bench' && registerBenchTask) return registerBenchTask(this, name, resolved)
  // Otherwise an ordinary test: verification only (`vitest run`), or in Vitest 5's benchmark project the timed,
  // guarded run (`vitest bench`).
  registerTest(this, name, async (context) => {
    const file = context.task.file.filepath
    const cases = caseRecorder(context.task)
    const result =
      run.command === 'bench'
        ? await runGuardedBench(name, resolved, { file, settings, root: run.root, updateBaselines: run.updateBaselines, onCase: cases.onCase }, context.task.meta)
        : await runResolvedBench(name, resolved, { file, mode: 'verify', settings })
    await cases.recorded()
    context.task.meta.kernelBench = result
    settleTest(context, result)
  })
}

/**
 * Registers a kernel benchmark: a correctness test under `vitest run`, a timed and guarded benchmark under `vitest
 * bench`. Its spec is checked when it is declared. Chainable like test(): `kernelBench.skip`, `.only`, `.todo`.
 */
export const kernelBench = withModifiers<<D extends Dtype>(name: string, spec: KernelBenchSpec<D>) => void>(register)
