// kernelProperty(): a Vitest test that draws shapes with fast-check, verifies the solution on the GPU for each,
// and shrinks a failure to the smallest shape that breaks the kernel. The solution is compiled once per property.
import fc from 'fast-check'
import { inject } from 'vitest'
import type { PluginSettings } from './plugin-settings.js'
import { prepareKernelBench, type BenchContext, type PreparedKernelBench } from './prepare-bench.js'
import { checkOptionNames, resolveSpec, type ResolvedSpec } from './resolve-spec.js'
import type { Dtype } from '../spec/dtype.js'
import { registerTest, runContext, withModifiers } from './modifiers.js'
import type { Problem, ShapeSpace, TestCase } from '../spec/problem.js'
import { SETTINGS_KEY, type Modifiers } from './registry.js'
import { failureMessage, type CaseResult } from '../shared/results.js'
import { resolveShapeSpace, shapeArbitrary, type ResolvedShapeSpace } from './shapes.js'

export interface KernelPropertySpec<D extends Dtype = Dtype> {
  problem: Problem<D>
  /** The .cu file with `extern "C" void solution(...)`, relative to the test file. */
  solution: string
  /** Element type, one of the problem's dtypes; default 'float32'. */
  dtype?: NoInfer<D>
  /** Where shapes are drawn from; default the problem's `shapes`, else every integer scalar in 1..1024. */
  shapes?: ShapeSpace
  /** Shapes verified for the property to hold (default 25); shrinking a failure verifies more. */
  numRuns?: number
  /** fast-check's seed. A failure prints the one it used: pass it here to replay the same shapes. */
  seed?: number
}

export type PropertyOutcome =
  | { status: 'passed'; numRuns: number; seed: number }
  | { status: 'skipped'; reason: string }
  | { status: 'failed'; counterexample: TestCase; seed: number; message: string }

const DEFAULT_NUM_RUNS = 25

/** Carries a drawn case's failed result out of fast-check, which keeps the error of the smallest failing case. */
class CaseFailure extends Error {
  constructor(readonly result: CaseResult) {
    super(`case '${result.name}' failed`)
  }
}

const PROPERTY_KEYS = ['problem', 'solution', 'dtype', 'shapes', 'numRuns', 'seed']

/** A property's spec checked: the bench it verifies, the shape space it draws from, and fast-check's settings. */
export interface ResolvedProperty {
  bench: ResolvedSpec
  space: ResolvedShapeSpace
  run: { numRuns: number; seed?: number }
}

/** Checks a property's spec; every error starts with `kernelProperty('name')`. */
export function resolveProperty(name: string, spec: KernelPropertySpec, settings: PluginSettings): ResolvedProperty {
  const entry = `kernelProperty('${name}')`
  const { problem, solution, dtype, shapes, numRuns = DEFAULT_NUM_RUNS, seed } = spec
  // A property only verifies: a plugin-wide skipVerification would make it pass without checking anything.
  const bench = resolveSpec({ problem, solution, dtype, skipVerification: false }, settings, entry)
  try {
    checkOptionNames(spec, PROPERTY_KEYS)
    if (!Number.isSafeInteger(numRuns) || numRuns < 1) throw new Error(`option numRuns must be a positive integer (got ${numRuns})`)
    if (seed !== undefined && !Number.isSafeInteger(seed)) throw new Error(`option seed must be an integer (got ${seed})`)
    return { bench, space: resolveShapeSpace(bench.problem, bench.dtype, shapes), run: { numRuns, seed } }
  } catch (error) {
    throw new Error(`${entry}: ${(error as Error).message}`)
  }
}

/** Runs a checked property where a kernelProperty() test would, and says how it went instead of throwing. */
export async function runProperty(name: string, property: ResolvedProperty, context: Omit<BenchContext, 'mode'>): Promise<PropertyOutcome> {
  const bench = await prepareKernelBench(name, property.bench, { ...context, mode: 'verify' })
  if (bench.header.skipped) return { status: 'skipped', reason: bench.header.skipped }
  return checkOnShapes(bench, property.space, property.run)
}

/** Checks the spec, then runs the property: resolveProperty and runProperty in one call (a bad spec rejects). */
export async function checkKernelProperty(name: string, spec: KernelPropertySpec, context: Omit<BenchContext, 'mode'>): Promise<PropertyOutcome> {
  return runProperty(name, resolveProperty(name, spec, context.settings), context)
}

/** Verifies drawn shapes as cases of a prepared bench; on a failure, shrinks it and describes the smallest one. */
export async function checkOnShapes(
  bench: Pick<PreparedKernelBench, 'header' | 'runCase'>,
  space: ResolvedShapeSpace,
  run: { numRuns: number; seed?: number },
): Promise<PropertyOutcome> {
  const details = await fc.check(
    fc.asyncProperty(shapeArbitrary(space), async (c) => {
      const result = await bench.runCase(c)
      if (result.outcome.status !== 'ok') throw new CaseFailure(result)
    }),
    run,
  )
  if (!details.failed) return { status: 'passed', numRuns: details.numRuns, seed: details.seed }

  const counterexample = details.counterexample?.[0]
  const error = details.errorInstance
  if (!counterexample) throw error
  const { header } = bench
  const why =
    error instanceof CaseFailure
      ? failureMessage({ ...header, cases: [error.result] })
      : `${header.bench} (${header.problem}, ${header.dtype}): case '${counterexample.name}': ${error instanceof Error ? error.message : String(error)}`
  const message =
    `smallest failing shape: ${counterexample.name} (found after ${details.numRuns} shapes, shrunk ${details.numShrinks} times; ` +
    `replay with \`seed: ${details.seed}\`)\n${why}`
  return { status: 'failed', counterexample, seed: details.seed, message }
}

function register(this: Modifiers, name: string, spec: KernelPropertySpec): void {
  const run = runContext('kernelProperty')
  const settings = inject(SETTINGS_KEY)
  // Checked as the file is collected, under `vitest bench` too: a wrong argument fails wherever it is found.
  const property = resolveProperty(name, spec, settings)
  if (run.command === 'bench') return
  registerTest(this, name, async (context) => {
    const outcome = await runProperty(name, property, { file: context.task.file.filepath, settings })
    if (outcome.status === 'skipped') context.skip(outcome.reason)
    if (outcome.status === 'failed') throw new Error(outcome.message)
  })
}

/**
 * Registers a `vitest run` test that draws `numRuns` shapes from the problem's shape space, verifies the solution
 * on each, and on a failure shrinks to the smallest failing shape and fails with its wrong-answer message and the
 * seed that replays it. Skipped, with the reason, where no GPU is usable. Chainable like test():
 * `kernelProperty.skip`, `.only`, `.todo`.
 *
 * Under `vitest bench` it registers nothing, whatever the modifiers: a property has nothing to time, and every
 * case a kernelBench times is verified anyway; a row that could never run would only clutter the benchmark table.
 */
export const kernelProperty = withModifiers<<D extends Dtype>(name: string, spec: KernelPropertySpec<D>) => void>(register)
