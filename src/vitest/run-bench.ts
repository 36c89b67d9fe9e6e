// A prepared kernelBench's cases spread over the run's GPUs: as many at once as there are GPUs, each case claiming a
// free one (src/engine/worker/gpu-pool.ts), after a memcheck run of the smallest case where the plugin asks for one.
import type { KernelBenchResult } from '../shared/results.js'
import type { Dtype } from '../spec/dtype.js'
import type { Problem, TestCase } from '../spec/problem.js'
import { benchFileWork, memcheckName, prepareKernelBench, type BenchContext } from './prepare-bench.js'
import { resolveSpec, type KernelBenchSpec, type ResolvedSpec } from './resolve-spec.js'

/** The case that moves the fewest bytes: the quickest to run under memcheck. */
function smallestCase(problem: Problem, dtype: Dtype, cases: readonly TestCase[]): TestCase {
  return cases.reduce((best, c) => (problem.bytes(c, dtype) < problem.bytes(best, dtype) ? c : best))
}

/**
 * Runs `run` over the items in `width` lanes at most, and gives the results in the items' order. `run` learns its
 * lane's number (0 for the first).
 */
async function runAtMost<T, R>(items: readonly T[], width: number, run: (item: T, index: number, lane: number) => Promise<R>): Promise<R[]> {
  const results: R[] = []
  let next = 0
  const lane = async (_: unknown, number: number) => {
    for (let index = next++; index < items.length; index = next++) results[index] = await run(items[index]!, index, number)
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, lane))
  return results
}

/**
 * Runs every case of a resolved spec (after a memcheck run of the smallest, in sanitize mode), as many at once as
 * the run has GPUs: each case claims a free GPU (src/engine/worker/gpu-pool.ts), so one bench file can fill them all
 * when no other bench needs them.
 */
export async function runResolvedBench(name: string, spec: ResolvedSpec, context: BenchContext): Promise<KernelBenchResult> {
  const { header: result, cases, runCase, sanitizeCase } = await prepareKernelBench(name, spec, context)
  if (result.skipped) return result
  const total = cases.length + (context.settings.sanitize ? 1 : 0)
  if (context.settings.sanitize) {
    const smallest = smallestCase(spec.problem, spec.dtype, cases)
    context.onCase?.(0, total, memcheckName(smallest))
    result.cases.push(await sanitizeCase(smallest))
  }
  const first = result.cases.length
  // One lane per GPU; the extra lanes take a GPU only when no other bench wants it (src/engine/worker/gpu-pool.ts).
  const timed = await runAtMost(cases, result.devices?.length ?? 1, (c, index, lane) => {
    context.onCase?.(first + index, total, c.name)
    return runCase(c, lane > 0)
  })
  result.cases.push(...timed)
  benchFileWork(context).save()
  return result
}

/** Checks the spec, then runs every case: resolveSpec and runResolvedBench in one call. */
export function runKernelBench(name: string, spec: KernelBenchSpec, context: BenchContext): Promise<KernelBenchResult> {
  return runResolvedBench(name, resolveSpec(spec, context.settings, `kernelBench('${name}')`), context)
}
