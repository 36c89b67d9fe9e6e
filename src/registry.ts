// State shared between the bench files, the runner and the plugin inside one Vitest worker. Kept on globalThis
// because Vitest may evaluate this module more than once per worker (once per isolated test file).
import type { Test } from '@vitest/runner'
import type { KernelBenchSpec, PluginSettings } from './bench.js'

export const SETTINGS_KEY = 'vitest-kernel-bench'

declare module 'vitest' {
  interface ProvidedContext {
    [SETTINGS_KEY]: PluginSettings
  }
}

interface Shared {
  /** 'benchmark' or 'test', set by the runner before any bench file is collected. */
  mode?: string
  specs: WeakMap<Test, { name: string; spec: KernelBenchSpec }>
}

const KEY = Symbol.for('vitest-kernel-bench.shared')

export function shared(): Shared {
  const global = globalThis as typeof globalThis & { [KEY]?: Shared }
  global[KEY] ??= { specs: new WeakMap() }
  return global[KEY]
}
