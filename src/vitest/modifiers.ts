// What kernelBench() and kernelProperty() share as Vitest entries: the .skip/.only/.todo chain, the check that the
// plugin is installed, and registration as an ordinary Vitest test (so describe, -t and file filters apply).
import { inject, test, type TestFunction } from 'vitest'
import { RUN_KEY, type Modifiers, type RunContext } from './registry.js'

const MODIFIERS = ['skip', 'only', 'todo'] as const

// Any function that registers an entry. `never[]` (not `unknown[]`) so that a generic call signature fits too.
type Registration = (...args: never[]) => void

type Chain<F extends Registration> = F & { readonly [K in keyof Modifiers]-?: Chain<F> }

/**
 * `register` with `.skip`, `.only` and `.todo`, chainable like test()'s, typed as `F`: a generic signature (the
 * spec's dtype narrowed to its problem's) is kept. Our own: Vitest 5 no longer exports the helper Vitest 4 builds
 * test() with.
 */
export function withModifiers<F extends Registration>(register: (this: Modifiers, ...args: Parameters<F>) => void): Chain<F> {
  const chain = (modifiers: Modifiers): Chain<F> => {
    const fn = (...args: Parameters<F>) => register.apply(modifiers, args)
    for (const key of MODIFIERS) Object.defineProperty(fn, key, { get: () => chain({ ...modifiers, [key]: true }) })
    return fn as unknown as Chain<F>
  }
  return chain({})
}

/** What the plugin provides about this run (src/plugin.ts); a clear error where the plugin is missing. */
export function runContext(api: string): RunContext {
  const run = inject(RUN_KEY)
  if (run) return run
  throw new Error(`${api}() needs the plugin: add kernelBenchPlugin() to the plugins of your vitest config`)
}

/** Vitest's own limit is per test; a kernel test verifies many cases, each bounded by caseTimeoutMs. */
const KERNEL_TEST_TIMEOUT_MS = 30 * 60 * 1000

/** Registers `fn` as a Vitest test carrying the chain's modifier. */
export function registerTest(modifiers: Modifiers, name: string, fn: TestFunction): void {
  const vitestTest = modifiers.skip ? test.skip : modifiers.only ? test.only : modifiers.todo ? test.todo : test
  vitestTest(name, fn, KERNEL_TEST_TIMEOUT_MS)
}
