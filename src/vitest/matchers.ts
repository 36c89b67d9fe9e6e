// Kernel results in expect(): measureKernel() times a solution from inside any test, and the matchers judge the
// result as the CI guard does: TFLOPS from the median runtime, and a comparison by the interval of the change of medians.
import { expect, inject, type TestContext } from 'vitest'
import { caseMeasurement, resolveBaselineSettings } from '../baseline/guard.js'
import { formatTflops, type Measurement, type VerdictOptions } from '../baseline/verdict.js'
import { compareStreams, formatChangeInterval, judgeChange } from '../shared/median-change.js'
import { resolveSpec, type KernelBenchSpec } from './resolve-spec.js'
import { runResolvedBench } from './run-bench.js'
import type { Dtype } from '../spec/dtype.js'
import { SETTINGS_KEY } from './registry.js'
import type { KernelBenchResult } from '../shared/results.js'
import { settleTest } from './task-state.js'

/**
 * Verifies and times every case of `spec` inside the running test, as `vitest bench` would (no baseline, no floors):
 * the test is skipped with the reason where no GPU is usable, and fails on a wrong answer or a fault.
 */
export async function measureKernel<D extends Dtype>(context: TestContext, name: string, spec: KernelBenchSpec<D>): Promise<KernelBenchResult> {
  const settings = inject(SETTINGS_KEY)
  // Checked before anything is compiled or run.
  const resolved = resolveSpec(spec, settings, `measureKernel('${name}')`)
  const result = await runResolvedBench(name, resolved, { file: context.task.file.filepath, mode: 'bench', settings })
  settleTest(context, result)
  return result
}

function timedCases(result: KernelBenchResult): Array<{ name: string; m: Measurement }> {
  return result.cases.flatMap((c) => {
    const m = caseMeasurement(c)
    return m ? [{ name: c.name, m }] : []
  })
}

const list = (cases: Array<{ name: string; m: Measurement }>) => cases.map((c) => `${c.name} (${formatTflops(c.m.tflops)} TFLOPS)`).join(', ')

export const kernelMatchers = {
  /** Every timed case reaches `tflops` (TFLOPS from its median runtime); a result without timed cases fails. */
  toReachTflops(received: KernelBenchResult, tflops: number) {
    const cases = timedCases(received)
    const below = cases.filter((c) => !(c.m.tflops >= tflops))
    const pass = cases.length > 0 && below.length === 0
    const message = () =>
      cases.length === 0
        ? `${received.bench} has no timed case`
        : pass
          ? `expected ${received.bench} to stay below ${tflops} TFLOPS on some case: ${list(cases)}`
          : `${received.bench} is below ${tflops} TFLOPS on ${list(below)}`
    return { pass, message }
  },

  /**
   * Faster than `other` on every case both timed, as the CI guard judges a change (docs/ci-gate.md): the interval of
   * the change of the two medians lies wholly above the tolerance, with the plugin's `baseline` tolerance and
   * confidence unless given. A case too noisy to judge does not pass. Results from different GPUs never pass.
   */
  toOutperform(received: KernelBenchResult, other: KernelBenchResult, options: Partial<Pick<VerdictOptions, 'tolerance' | 'confidence'>> = {}) {
    const { tolerance, confidence } = { ...(inject(SETTINGS_KEY)?.baseline ?? resolveBaselineSettings()), ...options }
    const gpu = received.device?.name ?? 'unknown GPU'
    const otherGpu = other.device?.name ?? 'unknown GPU'
    const theirs = new Map(timedCases(other).map((c) => [c.name, c.m]))
    const verdicts = timedCases(received).flatMap(({ name, m }) => {
      const baseline = theirs.get(name)
      if (!baseline) return []
      if (otherGpu !== gpu) return [{ name, improved: false, message: `${other.bench} was measured on ${otherGpu}, not compared with ${gpu}` }]
      const estimate = compareStreams(baseline.samplesMs, m.samplesMs, confidence)
      const verdict = judgeChange(estimate, tolerance)
      const change = estimate.interval ? formatChangeInterval(estimate.interval) : 'no interval'
      return [{ name, improved: verdict.kind === 'improvement', message: `${formatTflops(m.tflops)} vs ${formatTflops(baseline.tflops)} TFLOPS, ${change}: ${verdict.kind}, ${verdict.reason}` }]
    })
    const notFaster = verdicts.filter((v) => !v.improved)
    const pass = verdicts.length > 0 && notFaster.length === 0
    const details = (vs: typeof verdicts) => vs.map((v) => `  ${v.name}: ${v.message}`).join('\n')
    const message = () =>
      verdicts.length === 0
        ? `${received.bench} and ${other.bench} have no timed case in common`
        : pass
          ? `expected ${received.bench} not to outperform ${other.bench}, but it does on every case:\n${details(verdicts)}`
          : `${received.bench} does not outperform ${other.bench} beyond the tolerance on:\n${details(notFaster)}`
    return { pass, message }
  },
}

expect.extend(kernelMatchers)

interface KernelMatchers<R = unknown> {
  toReachTflops(tflops: number): R
  toOutperform(other: KernelBenchResult, options?: Partial<Pick<VerdictOptions, 'tolerance' | 'confidence'>>): R
}

declare module 'vitest' {
  interface Matchers<T = any> extends KernelMatchers<T> {}
}
