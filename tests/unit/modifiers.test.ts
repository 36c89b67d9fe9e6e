// kernelBench and kernelProperty follow Vitest's .skip/.only/.todo, describe and -t: the fixture files are collected
// (never run, so no GPU is needed) by a Vitest started here with the plugin, in each mode.
import path from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createVitest, type VitestRunMode } from 'vitest/node'
import { kernelBenchPlugin } from '../../src/plugin.js'

const fixtures = fileURLToPath(new URL('../fixtures/modifiers/', import.meta.url))

/** Each collected test of the fixture files as 'file > full name: mode'. */
async function collectedModes(mode: VitestRunMode, options: { testNamePattern?: string } = {}, collect: { staticParse?: boolean } = {}): Promise<string[]> {
  const quiet = new Writable({ write: (_chunk, _encoding, done) => done() })
  const include = ['*.kernel.ts']
  const vitest = await createVitest(
    mode,
    { root: fixtures, config: false, watch: false, ...options },
    { plugins: [kernelBenchPlugin()], test: { include, benchmark: { include } } },
    { stdout: quiet, stderr: quiet },
  )
  try {
    const { testModules } = await vitest.collect(undefined, collect)
    const errors = testModules.flatMap((m) => m.errors())
    if (errors.length > 0) throw new Error(errors.map((e) => e.message).join('\n'))
    return testModules
      .flatMap((m) => Array.from(m.children.allTests(), (t) => `${path.basename(m.moduleId)} > ${t.fullName}: ${t.options.mode}`))
      .sort()
  } finally {
    await vitest.close()
  }
}

describe('modifiers', () => {
  it('under vitest run, make kernelBench and kernelProperty tests skipped, todo, or the only ones', async () => {
    expect(await collectedModes('test')).toEqual([
      'chain.kernel.ts > bench skip: skip',
      'chain.kernel.ts > bench todo: todo',
      'chain.kernel.ts > bench: run',
      'chain.kernel.ts > group > property in group: run',
      'chain.kernel.ts > property skip: skip',
      'chain.kernel.ts > property todo: todo',
      'chain.kernel.ts > property: run',
      'only.kernel.ts > bench: skip',
      'only.kernel.ts > property only: run',
      'only.kernel.ts > property: skip',
    ])
  })

  it("are listed by `vitest list` with Vitest 5's default, static parsing, as when the files run", async () => {
    expect(await collectedModes('test', {}, { staticParse: true })).toEqual(await collectedModes('test'))
  })

  it('leave kernelProperty tests to -t like any test', async () => {
    const modes = await collectedModes('test', { testNamePattern: 'group' })
    expect(modes.filter((m) => !m.endsWith(': skip') && !m.endsWith(': todo'))).toEqual(['chain.kernel.ts > group > property in group: run'])
  })

  it('under vitest bench, apply to kernelBench entries while kernelProperty registers nothing', async () => {
    expect(await collectedModes('benchmark')).toEqual([
      'chain.kernel.ts > bench skip: skip',
      'chain.kernel.ts > bench todo: todo',
      'chain.kernel.ts > bench: run',
      'only.kernel.ts > bench: run',
    ])
  })
})
