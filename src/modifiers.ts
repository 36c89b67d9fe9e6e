// What kernelBench() and kernelProperty() share as Vitest entries: the .skip/.only/.todo chain, the check that the
// plugin's runner is installed, and registration as an ordinary Vitest test (so describe, -t and file filters apply).
import { getCurrentSuite, type Test } from '@vitest/runner'
import { createChainable } from '@vitest/runner/utils'
import { test, type TestFunction } from 'vitest'
import { shared } from './registry.js'

/** The modifiers chained before the call (`kernelBench.skip(...)`): `this` of the registering function. */
export type Modifiers = { skip?: boolean; only?: boolean; todo?: boolean }

/** `register` with Vitest's `.skip`, `.only` and `.todo`, chainable like test()'s. */
export function withModifiers<Args extends unknown[]>(register: (this: Modifiers, ...args: Args) => void) {
  return createChainable(['skip', 'only', 'todo'], register)
}

/** The worker's mode, which the plugin's runner sets before any file is collected (src/runner.ts). */
export function kernelMode(api: string): 'benchmark' | 'test' {
  const mode = shared().mode
  if (mode === 'benchmark' || mode === 'test') return mode
  throw new Error(`${api}() needs the plugin: add kernelBenchPlugin() to the plugins of your vitest config`)
}

/** Vitest's own limit is per test; a kernel test verifies many cases, each bounded by caseTimeoutMs. */
const KERNEL_TEST_TIMEOUT_MS = 30 * 60 * 1000

/** Registers `fn` as a Vitest test carrying the chain's modifier, and returns the test. */
export function registerTest(modifiers: Modifiers, name: string, fn: TestFunction): Test {
  const vitestTest = modifiers.skip ? test.skip : modifiers.only ? test.only : modifiers.todo ? test.todo : test
  const suite = getCurrentSuite()
  vitestTest(name, fn, KERNEL_TEST_TIMEOUT_MS)
  // test() adds the task to the suite being collected, last.
  return suite.tasks.at(-1) as Test
}
