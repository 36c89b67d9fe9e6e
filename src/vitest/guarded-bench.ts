// One kernelBench timed and judged by the CI guard, for whichever Vitest task carries it: Vitest 4's benchmark task
// (src/vitest/runner.ts) or Vitest 5's test in a benchmark project (src/index.ts).
import type { TaskMeta } from 'vitest'
import { guardResult } from '../baseline/guard.js'
import type { PluginSettings } from './plugin-settings.js'
import type { BenchContext } from './prepare-bench.js'
import type { ResolvedSpec } from './resolve-spec.js'
import { runResolvedBench } from './run-bench.js'
import type { KernelBenchResult } from '../shared/results.js'

export interface GuardedRun {
  /** Absolute path of the bench file. */
  file: string
  settings: PluginSettings
  /** The project's root (baseline files are relative to it) and whether `-u` asks to record the baselines. */
  root: string
  updateBaselines: boolean
  onCase?: BenchContext['onCase']
}

/**
 * Runs every case of the spec in bench mode, then applies the guard (baseline, floors, roofline). The measured result
 * is in `meta.kernelBench` before the guard runs, so the table still shows the numbers if the baseline file is
 * unreadable.
 */
export async function runGuardedBench(name: string, resolved: ResolvedSpec, run: GuardedRun, meta: TaskMeta): Promise<KernelBenchResult> {
  const measured = await runResolvedBench(name, resolved, { file: run.file, mode: 'bench', settings: run.settings, onCase: run.onCase })
  meta.kernelBench = measured
  const result = guardResult(measured, {
    benchFile: run.file,
    root: run.root,
    rules: resolved.guard,
    settings: run.settings.baseline,
    update: run.updateBaselines,
  })
  meta.kernelBench = result
  return result
}
