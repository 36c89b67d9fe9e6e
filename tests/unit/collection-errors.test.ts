// A wrong argument to kernelBench or kernelProperty fails the file as Vitest collects it, before anything is
// compiled or run, in both modes: the fixture files are collected (never run, so no GPU is needed) by a Vitest
// started here with the plugin.
import path from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createVitest, type VitestRunMode } from 'vitest/node'
import { kernelBenchPlugin } from '../../src/plugin.js'

const fixtures = fileURLToPath(new URL('../fixtures/spec-errors/', import.meta.url))

/** The collection error of each fixture file, as 'file: message'. */
async function collectionErrors(mode: VitestRunMode): Promise<string[]> {
  const quiet = new Writable({ write: (_chunk, _encoding, done) => done() })
  const include = ['*.kernel.ts']
  const vitest = await createVitest(
    mode,
    { root: fixtures, config: false, watch: false },
    { plugins: [kernelBenchPlugin()], test: { include, benchmark: { include } } },
    { stdout: quiet, stderr: quiet },
  )
  try {
    const { testModules } = await vitest.collect()
    return testModules.flatMap((m) => m.errors().map((e) => `${path.basename(m.moduleId)}: ${e.message}`)).sort()
  } finally {
    await vitest.close()
  }
}

const expected = [
  "missing-dtype.kernel.ts: kernelBench('x'): option dtype: matrix-multiplication has no float64 variant (it has: float32, float16, bfloat16)",
  "misspelled-import.kernel.ts: kernelBench('x'): option problem is undefined — pass a problem from 'vitest-kernel-bench/problems' (e.g. matmul) or one made with defineProblem()",
  "no-cases.kernel.ts: kernelBench('x'): option cases keeps none of the cases (the predicate returned false for all); vector-addition's float32 cases are: 'n = 2^20', 'n = 2^22', 'n = 2^23', 'n = 2^25', 'n = 2^26', 'n = 2^29', 'n = 2^30'",
  "problem-string.kernel.ts: kernelBench('x'): option problem is the string 'matmull', not a problem — import the problem from 'vitest-kernel-bench/problems': did you mean 'matrix-multiplication' (import { matmul }), 'matmul-3d' (import { matmul3d }) or 'matmul-4d' (import { matmul4d })?",
  "property-option.kernel.ts: kernelProperty('p'): unknown option 'numRun' (did you mean 'numRuns'?)",
]

describe('a wrong argument fails the collection of its file', () => {
  it('under vitest run', async () => {
    expect(await collectionErrors('test')).toEqual(expected)
  })

  it('under vitest bench', async () => {
    expect(await collectionErrors('benchmark')).toEqual(expected)
  })
})
