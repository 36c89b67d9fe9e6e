// uint64 values beyond 2^53, which a JavaScript number cannot hold: a uint64_t scalar fixed by the problem as a bigint
// (checked against its C type, carried to the device host as digits, passed by koffi exactly) and uint64 inputs drawn
// as integers from a bigint range. No GPU: the fill and the compare are checked in tests/gpu/uint64.test.ts.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import koffi from 'koffi'
import { describe, expect, it } from 'vitest'
import { eccPointNegation, vectorAddition } from '../../problems/index.js'
import { elementCountExpression } from '../../src/cli/starter.js'
import { findNvcc } from '../../src/compile/nvcc.js'
import { scalarArgument } from '../../src/engine/host/buffers.js'
import { defineProblem, type Problem, type ProblemDefinition } from '../../src/spec/problem.js'
import { cPrototype, koffiParams, validateSignature, type ParamSpec } from '../../src/spec/signature.js'
import { casePlanner } from '../../src/vitest/case-plan.js'
import { resolveSpec } from '../../src/vitest/resolve-spec.js'
import { defaultShapeSpace } from '../../src/vitest/shapes.js'
import { scratchFolder } from '../helpers/scratch.js'

const P = 2n ** 61n - 1n

/** A problem of one uint64 input and output with a fixed uint64_t modulus `p` and a size `n`. */
const MODULAR: ProblemDefinition = {
  name: 'modular',
  signature: [
    { name: 'x', kind: 'input' },
    { name: 'p', kind: 'scalar', ctype: 'uint64_t', value: P },
    { name: 'y', kind: 'output' },
    { name: 'n', kind: 'scalar', ctype: 'size_t' },
  ],
  dtypes: ['uint64'],
  cases: () => [{ name: 'n = 8', params: { n: 8 } }],
  elements: ({ params }) => ({ x: params.n!, y: params.n! }),
  flops: ({ params }) => params.n!,
  tolerance: { uint64: { rtol: 0, atol: 0 } },
  reference: { kind: 'cuda', file: '/abs/modular.cu' },
  inputRange: [0n, P],
}

const settings = { devices: [0], cacheDir: '/nonexistent', measure: {} }
const planOf = (problem: Problem, cases?: unknown[]) => {
  const spec = resolveSpec({ problem, solution: 'x.cu', ...(cases && { cases }) } as never, settings, 'test')
  const planner = casePlanner('test', spec, { library: '/x.so', source: 'x.cu', entry: 'solution', params: [] }, { kind: 'gemm' } as never)
  return planner(spec.cases[0]!, 'verify', spec.options)
}

describe('a uint64_t scalar', () => {
  it('is spelled uint64_t in the prototype and passed to koffi as uint64_t', () => {
    expect(cPrototype(MODULAR.signature, 'uint64')).toBe('void solution(const uint64_t* x, uint64_t p, uint64_t* y, size_t n)')
    expect(koffiParams(MODULAR.signature)).toEqual(['void *', 'uint64_t', 'void *', 'size_t'])
  })

  it('takes a fixed value that fits its C type: a bigint only for a uint64_t, and within 0 … 2^64 - 1', () => {
    const withScalar = (scalar: ParamSpec) => () => validateSignature([{ name: 'y', kind: 'output' }, scalar], 'p')
    expect(withScalar({ name: 'm', kind: 'scalar', ctype: 'uint64_t', value: 2n ** 64n - 1n })).not.toThrow()
    expect(withScalar({ name: 'm', kind: 'scalar', ctype: 'uint64_t', value: 2 ** 53 - 1 })).not.toThrow()
    expect(withScalar({ name: 'm', kind: 'scalar', ctype: 'uint64_t', value: 2n ** 64n })).toThrow(
      "p: scalar 'm': 18446744073709551616 is outside uint64_t's 0 … 2^64 - 1",
    )
    expect(withScalar({ name: 'm', kind: 'scalar', ctype: 'uint64_t', value: -1n })).toThrow("scalar 'm': -1 is outside uint64_t's 0 … 2^64 - 1")
    // 2^61 - 1 as a number is 2^61: refused rather than passed rounded.
    expect(withScalar({ name: 'm', kind: 'scalar', ctype: 'uint64_t', value: 2 ** 61 - 1 })).toThrow(
      "scalar 'm': 2305843009213694000 is not a whole number a number holds exactly (give a uint64_t beyond 2^53 as a bigint)",
    )
    expect(withScalar({ name: 'm', kind: 'scalar', ctype: 'size_t', value: 5n })).toThrow("scalar 'm': a bigint is only for a uint64_t (this is a size_t)")
    expect(withScalar({ name: 'm', kind: 'scalar', ctype: 'size_t', value: -1 })).toThrow("scalar 'm': -1 is negative, and size_t is unsigned")
    expect(withScalar({ name: 'm', kind: 'scalar', ctype: 'int', value: 2 ** 31 })).toThrow("scalar 'm': 2147483648 is outside int's range")
    expect(withScalar({ name: 'm', kind: 'scalar', ctype: 'float', value: NaN })).toThrow("scalar 'm': NaN is not finite")
  })

  it('with a fixed value goes to the device host as its decimal digits, which become the exact bigint again', () => {
    const scalars = planOf(defineProblem(MODULAR) as Problem).args.filter((a) => a.kind === 'scalar')
    expect(scalars).toEqual([
      { kind: 'scalar', ctype: 'uint64_t', value: '2305843009213693951' },
      { kind: 'scalar', ctype: 'size_t', value: 8 },
    ])
    // The channel to the device host is JSON, which has no bigint.
    expect(JSON.parse(JSON.stringify(scalars))).toEqual(scalars)
    expect(scalars.map((s) => scalarArgument(s.value))).toEqual([P, 8])
  })

  it("with a fixed value is not a case's parameter: a case need not give it, may not give it, and shapes never draw it", () => {
    const problem = defineProblem(MODULAR) as Problem
    expect(planOf(problem, [{ name: 'n = 3', params: { n: 3 } }]).args.at(-1)).toEqual({ kind: 'scalar', ctype: 'size_t', value: 3 })
    expect(() => planOf(problem, [{ name: 'n = 3', params: { n: 3, p: 7 } }])).toThrow("has an unknown parameter 'p'")
    expect(defaultShapeSpace(problem.signature)).toEqual({ ranges: { n: [1, 1024] } })
    expect(elementCountExpression(problem, 'uint64', 'y')).toBe('n')
  })

  it("without a fixed value comes from the case's params, a whole number >= 0", () => {
    const problem = defineProblem({
      ...MODULAR,
      signature: MODULAR.signature.map((p) => (p.name === 'p' ? { name: 'p', kind: 'scalar', ctype: 'uint64_t' } : p)),
      cases: () => [{ name: 'n = 8', params: { n: 8, p: 97 } }],
    }) as Problem
    expect(planOf(problem).args[1]).toEqual({ kind: 'scalar', ctype: 'uint64_t', value: 97 })
    expect(() => planOf(problem, [{ name: 'bad', params: { n: 8, p: -3 } }])).toThrow("parameter 'p' is a uint64_t: a whole number >= 0 (got -3)")
  })

  it('reaches a compiled solution exactly through koffi, as the device host calls it', () => {
    const dir = scratchFolder('kb-uint64-')
    const source = path.join(dir, 'echo.cu')
    fs.writeFileSync(
      source,
      [
        '#include <stdint.h>',
        '#include <stddef.h>',
        '// Writes back what it was given: p, p - 1 (the low bit matters) and n.',
        'extern "C" void solution(const uint64_t* x, uint64_t p, uint64_t* y, size_t n) { y[0] = p; y[1] = p - 1; y[2] = n; }',
      ].join('\n'),
    )
    const library = path.join(dir, 'echo.so')
    execFileSync(findNvcc(), ['-shared', '-Xcompiler', '-fPIC', '-o', library, source])
    const problem = defineProblem(MODULAR) as Problem
    const solution = koffi.load(library).func('solution', 'void', koffiParams(problem.signature))
    const [, p, , n] = planOf(problem).args.map((a) => (a.kind === 'scalar' ? scalarArgument(a.value) : undefined))
    const y = new BigUint64Array(3)
    solution(new BigUint64Array(8), p, y, n)
    expect([...y]).toEqual([P, P - 1n, 8n])
  })
})

describe('a uint64 input', () => {
  it('goes to the device host with a bigint range as decimal digits', () => {
    expect(planOf(defineProblem(MODULAR) as Problem).args[0]).toEqual({
      kind: 'input',
      name: 'x',
      dtype: 'uint64',
      count: 8,
      range: ['0', '2305843009213693951'],
    })
    expect(planOf(vectorAddition as Problem).args[0]).toMatchObject({ range: [-1, 1] })
  })

  it('needs whole bounds 0 <= lo < hi <= 2^64 - 1, numbers or bigints; bigint bounds are for uint64 inputs only', () => {
    expect(() => defineProblem({ ...MODULAR, inputRange: [0, 100] })).not.toThrow()
    expect(() => defineProblem({ ...MODULAR, inputRange: [0n, 2n ** 64n - 1n] })).not.toThrow()
    const { inputRange: _, ...withDefaultRange } = MODULAR
    expect(() => defineProblem(withDefaultRange)).toThrow(
      "problem 'modular': input 'x' (uint64): a uint64 range needs 0 <= lo < hi <= 2^64 - 1 (got [-1, 1))",
    )
    expect(() => defineProblem({ ...MODULAR, inputRange: [0.5, 9] })).toThrow('a uint64 input is drawn as integers: give whole bounds (got [0.5, 9))')
    expect(() => defineProblem({ ...MODULAR, inputRange: [5n, 5n] })).toThrow('a uint64 range needs 0 <= lo < hi <= 2^64 - 1 (got [5, 5))')
    expect(() => defineProblem({ ...MODULAR, inputRange: [0n, 2n ** 64n] })).toThrow('a uint64 range needs 0 <= lo < hi <= 2^64 - 1')
    expect(() =>
      defineProblem({ ...MODULAR, dtypes: ['float32'], tolerance: { float32: { rtol: 0, atol: 0 } }, inputRange: [0n, 10n] }),
    ).toThrow("problem 'modular': input 'x' (float32): bigint bounds are for uint64 inputs only (this one is float32)")
  })

  it("ecc-point-negation draws its field elements from 0 … p - 1 and passes p = 2^61 - 1 exactly", () => {
    const plan = planOf(eccPointNegation as Problem)
    expect(plan.args.filter((a) => a.kind === 'input').map((a) => a.kind === 'input' && a.range)).toEqual([
      ['0', '2305843009213693951'],
      ['0', '2305843009213693951'],
    ])
    expect(plan.args[2]).toEqual({ kind: 'scalar', ctype: 'uint64_t', value: '2305843009213693951' })
  })
})
