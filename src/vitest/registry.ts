// State shared between the bench files, the runner and the plugin inside one Vitest worker. Kept on globalThis
// because Vitest may evaluate this module more than once per worker (once per isolated test file).
import type { RunnerTestCase, TestArtifactBase } from 'vitest'
import type { PluginSettings } from './plugin-settings.js'
import type { ResolvedSpec } from './resolve-spec.js'
import type { KernelBenchProgress, KernelBenchResult } from '../shared/results.js'

/** The modifiers chained before the call (`kernelBench.skip(...)`): `this` of the registering function. */
export type Modifiers = { skip?: boolean; only?: boolean; todo?: boolean }

export const SETTINGS_KEY = 'vitest-kernel-bench'
export const RUN_KEY = 'vitest-kernel-bench-run'

/** What the plugin tells the workers of one Vitest project about the run (plugin.ts configureVitest). */
export interface RunContext {
  /**
   * The Vitest command the project runs under: 'bench' in `vitest bench` (Vitest 4) and in Vitest 5's benchmark
   * projects, else 'run'. Not a kernelBench's mode (KernelBenchResult.mode, 'verify' or 'bench'), nor Vitest's own.
   */
  command: 'bench' | 'run'
  /** The project's root: baseline files are relative to it. */
  root: string
  /** `-u`: record the baselines instead of judging against them. */
  updateBaselines: boolean
}

/** The type of the artifact that names the case a kernelBench runs now (KernelBenchCaseArtifact). */
export const CASE_ARTIFACT = 'vitest-kernel-bench:case'

/**
 * Recorded on a kernelBench's test before each case it times under Vitest 5's `vitest bench` (src/index.ts), for the
 * reporter's progress line. Under Vitest 4 the case travels in the task's meta instead (kernelBenchProgress).
 */
export interface KernelBenchCaseArtifact extends TestArtifactBase {
  type: typeof CASE_ARTIFACT
  progress: KernelBenchProgress
}

// Vitest 4 re-exports these interfaces from @vitest/runner, Vitest 5 declares them itself: 'vitest' names them in both.
declare module 'vitest' {
  interface ProvidedContext {
    [SETTINGS_KEY]: PluginSettings
    [RUN_KEY]: RunContext
  }
  interface TaskMeta {
    /** A kernelBench's result: its cases verified (`vitest run`), or timed and judged (`vitest bench`). */
    kernelBench?: KernelBenchResult
    /** The case a kernelBench runs now, while Vitest 4's `vitest bench` runs it (src/vitest/runner.ts). */
    kernelBenchProgress?: KernelBenchProgress
  }
  interface TestArtifactRegistry {
    [CASE_ARTIFACT]: KernelBenchCaseArtifact
  }
}

interface Shared {
  /**
   * Vitest 4's `vitest bench`: registers a kernelBench (its spec checked when it was declared) as a task without a
   * function, which the plugin's runner (src/vitest/runner.ts) installs this for and runs. Absent under Vitest 5, where a
   * kernelBench is an ordinary test.
   */
  registerBenchTask?(modifiers: Modifiers, name: string, spec: ResolvedSpec): void
  specs: WeakMap<RunnerTestCase, { name: string; spec: ResolvedSpec }>
}

const KEY = Symbol.for('vitest-kernel-bench.shared')

export function shared(): Shared {
  const global = globalThis as typeof globalThis & { [KEY]?: Shared }
  global[KEY] ??= { specs: new WeakMap() }
  return global[KEY]
}
