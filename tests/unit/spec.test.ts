// A kernelBench or kernelProperty spec checked when the entry is declared (src/vitest/resolve-spec.ts resolveSpec,
// src/vitest/property.ts resolveProperty): every wrong argument names the entry, the option, what was given, what
// is allowed and, where one is close, what was meant. No GPU: nothing is compiled or run.
import { describe, expect, expectTypeOf, it } from 'vitest'
import * as problems from '../../problems/index.js'
import { arraySort, matmul, relu, sumDim, vectorAddition } from '../../problems/index.js'
import type { PluginSettings } from '../../src/vitest/plugin-settings.js'
import { resolveSpec, type KernelBenchSpec } from '../../src/vitest/resolve-spec.js'
import type { Dtype } from '../../src/spec/dtype.js'
import { kernelBench, kernelProperty, measureKernel, type Problem } from '../../src/index.js'
import { resolveProperty } from '../../src/vitest/property.js'

const settings: PluginSettings = { devices: [0], cacheDir: '/tmp/kb-spec-test', measure: {} }
const solution = 'x.cu'
const resolve = (spec: Record<string, unknown>) => () => resolveSpec(spec as unknown as KernelBenchSpec, settings, "kernelBench('x')")
const vectorCases = vectorAddition.cases('float32').map((c) => `'${c.name}'`).join(', ')

describe('the problem', () => {
  it('undefined (a misspelled import): says what to pass', () => {
    expect(resolve({ problem: (problems as Record<string, unknown>).matmull, solution })).toThrow(
      "kernelBench('x'): option problem is undefined — pass a problem from 'vitest-kernel-bench/problems' (e.g. matmul) or one made with defineProblem()",
    )
  })

  it('a string: names the problem meant and its import', () => {
    expect(resolve({ problem: 'matmull', solution })).toThrow(
      "kernelBench('x'): option problem is the string 'matmull', not a problem — import the problem from 'vitest-kernel-bench/problems': did you mean 'matrix-multiplication' (import { matmul }), 'matmul-3d' (import { matmul3d }) or 'matmul-4d' (import { matmul4d })?",
    )
    expect(resolve({ problem: 'sum-dim', solution })).toThrow("did you mean 'sum-dim' (import { sumDim })?")
  })

  it('anything else: shows what was given', () => {
    expect(resolve({ problem: { name: 'mine' }, solution })).toThrow(
      `kernelBench('x'): option problem is not a problem (got {"name":"mine"}) — pass a problem from 'vitest-kernel-bench/problems'`,
    )
  })
})

describe('the dtype', () => {
  it('one the problem has no variant of fails, whether or not a GPU is there', () => {
    expect(resolve({ problem: matmul, solution, dtype: 'float64' })).toThrow(
      "kernelBench('x'): option dtype: matrix-multiplication has no float64 variant (it has: float32, float16, bfloat16)",
    )
    expect(resolve({ problem: relu, solution, dtype: 'int32' })).toThrow("kernelBench('x'): option dtype: relu has no int32 variant (it has: float32, float16, bfloat16)")
  })

  it("left out, is the problem's first: float32 where it has one, else its own (array-sort's int32)", () => {
    expect(resolve({ problem: matmul, solution })().dtype).toBe('float32')
    expect(resolve({ problem: arraySort, solution })().dtype).toBe('int32')
  })

  it('an unknown one gets the closest of the problem’s', () => {
    expect(resolve({ problem: matmul, solution, dtype: 'bfloat61' })).toThrow(
      "kernelBench('x'): option dtype: unknown dtype 'bfloat61' (did you mean 'bfloat16'?); matrix-multiplication has float32, float16, bfloat16",
    )
  })

  it('is the type of the problem’s own dtypes where the problem’s type carries them', () => {
    expectTypeOf(matmul.dtypes).toEqualTypeOf<readonly ('float32' | 'float16' | 'bfloat16')[]>()
    expectTypeOf(sumDim.dtypes).toEqualTypeOf<readonly 'float32'[]>()
    expectTypeOf<KernelBenchSpec<'float32' | 'float16'>['dtype']>().toEqualTypeOf<'float32' | 'float16' | undefined>()
    // A problem typed as plain Problem (any dtype) still takes any dtype.
    expectTypeOf<KernelBenchSpec['dtype']>().toEqualTypeOf<Dtype | undefined>()
    expectTypeOf(kernelBench<'float16'>).parameter(1).toHaveProperty('dtype').toEqualTypeOf<'float16' | undefined>()
  })

  it('rejects, at compile time, a dtype the problem lacks (checked by tsc; these functions are never called)', () => {
    const wide: Problem = matmul
    const declarations = [
      () => kernelBench('ok', { problem: matmul, solution, dtype: 'bfloat16' }),
      () => kernelBench('wide', { problem: wide, solution, dtype: 'float64' }),
      // @ts-expect-error: matrix-multiplication has no float64 variant
      () => kernelBench('x', { problem: matmul, solution, dtype: 'float64' }),
      // @ts-expect-error: relu has no int32 variant
      () => kernelProperty('x', { problem: relu, solution, dtype: 'int32' }),
      // @ts-expect-error: sum-dim has float32 only
      (context: Parameters<typeof measureKernel>[0]) => measureKernel(context, 'x', { problem: sumDim, solution, dtype: 'float16' }),
    ]
    expect(declarations).toHaveLength(5)
  })
})

describe('the cases', () => {
  it('a predicate that keeps none names the cases there are', () => {
    expect(resolve({ problem: vectorAddition, solution, cases: () => false })).toThrow(
      `kernelBench('x'): option cases keeps none of the cases (the predicate returned false for all); vector-addition's float32 cases are: ${vectorCases}`,
    )
  })

  it('an empty list, an unknown name, a case without its sizes, two cases of one name', () => {
    expect(resolve({ problem: vectorAddition, solution, cases: [] })).toThrow(`kernelBench('x'): option cases is an empty list; vector-addition's float32 cases are: ${vectorCases}`)
    expect(resolve({ problem: vectorAddition, solution, cases: ['n = 2^21'] })).toThrow(
      "kernelBench('x'): option cases[0] names no case of vector-addition: 'n = 2^21' (did you mean 'n = 2^20', 'n = 2^22' or 'n = 2^23'?)",
    )
    expect(resolve({ problem: vectorAddition, solution, cases: [{ name: 'tiny', params: { m: 4 } }] })).toThrow(
      "kernelBench('x'): option cases[0] ('tiny') has no number for 'n', a parameter of vector-addition",
    )
    expect(resolve({ problem: vectorAddition, solution, cases: [{ name: 'a', params: { n: 4 } }, { name: 'a', params: { n: 8 } }] })).toThrow(
      "kernelBench('x'): option cases names two cases 'a'",
    )
    expect(resolve({ problem: vectorAddition, solution, cases: 'all' })).toThrow(
      "kernelBench('x'): option cases must be an array of test cases { name, params } or a predicate (got 'all')",
    )
  })

  it('a list of whole cases is taken as given', () => {
    const cases = [{ name: 'tiny', params: { n: 4 } }]
    expect(resolveSpec({ problem: vectorAddition, solution, cases }, settings, "kernelBench('x')").cases).toEqual(cases)
  })

  it('a list adds cases of its own to default ones named', () => {
    const [first] = vectorAddition.cases('float32')
    const cases = resolveSpec({ problem: vectorAddition, solution, cases: [first!.name, { name: 'n = 1000', params: { n: 1000 } }] }, settings, "kernelBench('x')").cases
    expect(cases).toEqual([first, { name: 'n = 1000', params: { n: 1000 } }])
  })

  it("an added case is checked against the problem's parameters and sizes", () => {
    expect(resolve({ problem: vectorAddition, solution, cases: [{ name: 'a', params: { n: 4, m: 2 } }] })).toThrow(
      "kernelBench('x'): option cases[0] ('a') has an unknown parameter 'm' (did you mean 'n'?); vector-addition takes 'n'",
    )
    expect(resolve({ problem: vectorAddition, solution, cases: [{ name: 'a', params: { n: 4.5 } }] })).toThrow(
      "kernelBench('x'): option cases[0] ('a'): parameter 'n' is a size_t: a whole number >= 0 (got 4.5)",
    )
    expect(resolve({ problem: vectorAddition, solution, cases: [{ name: 'a', params: { n: '4' } }] })).toThrow("parameter 'n' must be a finite number (got '4')")
    expect(resolve({ problem: vectorAddition, solution, cases: [{ name: 'a', params: { n: 0 } }] })).toThrow(
      "kernelBench('x'): option cases[0] ('a'): no element count for parameter",
    )
    expect(resolve({ problem: vectorAddition, solution, cases: [{ name: '', params: { n: 4 } }] })).toThrow("option cases[0] must be a default case's name or a test case")
  })

  it("a problem's sizes outside its signature are known and required where every default case has them", () => {
    const [first] = matmul.cases('float32')
    expect(resolve({ problem: matmul, solution, cases: [{ name: 'a', params: { ...first!.params, extra: 1 } }] })).toThrow("unknown parameter 'extra'")
  })
})

describe('supports', () => {
  const small = (c: { params: Readonly<Record<string, number>> }) => c.params.n! <= 2 ** 22 || `n = ${c.params.n} is over 2^22`

  it('keeps the cases it accepts and lists those it declines with why', () => {
    const spec = resolveSpec({ problem: vectorAddition, solution, supports: small }, settings, "kernelBench('x')")
    expect(spec.cases.map((c) => c.name)).toEqual(['n = 2^20', 'n = 2^22'])
    expect(spec.unsupported[0]).toEqual({ name: 'n = 2^23', reason: 'n = 8388608 is over 2^22' })
    const declined = resolveSpec({ problem: vectorAddition, solution, supports: (c) => c.name === 'n = 2^20' }, settings, "kernelBench('x')").unsupported
    expect(declined[0]).toEqual({ name: 'n = 2^22', reason: 'not supported by the solution' })
  })

  it('declining every case, a wrong answer or a supports that is not a function fails the collection', () => {
    expect(resolve({ problem: vectorAddition, solution, cases: ['n = 2^30'], supports: small })).toThrow(
      "kernelBench('x'): option supports declines every selected case: 'n = 2^30' (n = 1073741824 is over 2^22)",
    )
    expect(resolve({ problem: vectorAddition, solution, supports: () => 1 })).toThrow(
      "kernelBench('x'): option supports returned 1 for case 'n = 2^20': return true, false or a reason (a string)",
    )
    expect(resolve({ problem: vectorAddition, solution, supports: true })).toThrow('option supports must be a function')
  })
})

describe('option names and the solution', () => {
  it('an unknown option gets the closest spec or measurement option', () => {
    expect(resolve({ problem: vectorAddition, soluton: solution })).toThrow("kernelBench('x'): unknown option 'soluton' (did you mean 'solution'?)")
    expect(resolve({ problem: vectorAddition, solution, dtypes: 'float32' })).toThrow("unknown option 'dtypes' (did you mean 'dtype'?)")
    expect(resolve({ problem: vectorAddition, solution, minTFlops: 3 })).toThrow("unknown option 'minTFlops' (did you mean 'minTflops'?)")
    expect(resolve({ problem: vectorAddition, solution, targetCV: 0.1 })).toThrow("unknown option 'targetCV' (did you mean 'targetCv'?)")
  })

  it('an unknown option with no close name gets the list of every option a spec takes', () => {
    let message = ''
    try {
      resolve({ problem: vectorAddition, solution, warmup: 3 })()
    } catch (error) {
      message = (error as Error).message
    }
    const listed = /^kernelBench\('x'\): unknown option 'warmup' \(the options are: (.*)\)$/.exec(message)
    const names = listed?.[1]?.split(', ') ?? []
    expect(names).toEqual(expect.arrayContaining(['problem', 'solution', 'dtype', 'cases', 'minTflops', 'warmupRuns', 'targetCv', 'timing']))
  })

  it('a missing solution says what it must be', () => {
    expect(resolve({ problem: vectorAddition })).toThrow(
      "kernelBench('x'): option solution must be the path of a .cu file, or of a TypeScript/JavaScript module exporting defineSolution(...), relative to the bench file (got undefined)",
    )
  })

  it('a spec that is not an object', () => {
    expect(() => resolveSpec(undefined as never, settings, "kernelBench('x')")).toThrow("kernelBench('x'): the spec must be an object { problem, solution, … } (got undefined)")
  })
})

describe('kernelProperty', () => {
  const property = (spec: Record<string, unknown>) => () => resolveProperty('p', spec as never, settings)

  it('names itself, its own options and the bench options it shares', () => {
    expect(property({ problem: vectorAddition, solution, numRun: 5 })).toThrow("kernelProperty('p'): unknown option 'numRun' (did you mean 'numRuns'?)")
    expect(property({ problem: vectorAddition, solution, numRuns: 0 })).toThrow("kernelProperty('p'): option numRuns must be a positive integer (got 0)")
    expect(property({ problem: vectorAddition, solution, seed: 'abc' })).toThrow("kernelProperty('p'): option seed must be an integer (got abc)")
    expect(property({ problem: relu, solution, dtype: 'int32' })).toThrow("kernelProperty('p'): option dtype: relu has no int32 variant")
    expect(property({ problem: vectorAddition, solution, shapes: { ranges: { q: [1, 2] } } })).toThrow("kernelProperty('p'): ")
  })
})
