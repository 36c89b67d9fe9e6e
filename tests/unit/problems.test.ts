import { describe, expect, it } from 'vitest'
import { matmul, matrixMultiplication, vectorAddition } from '../../problems/index.js'
import { defineProblem, elementsOf, problemDtype, toleranceFor, type ProblemDefinition } from '../../src/spec/problem.js'
import { expectCudaReference } from '../helpers/problem-tests.js'

describe('vector-addition', () => {
  const cases = vectorAddition.cases('float32')

  it("has Tensara's seven sizes, 2^20 … 2^30", () => {
    expect(cases.map((c) => c.params.n)).toEqual([2 ** 20, 2 ** 22, 2 ** 23, 2 ** 25, 2 ** 26, 2 ** 29, 2 ** 30])
    expect(cases.map((c) => c.name)).toEqual(['n = 2^20', 'n = 2^22', 'n = 2^23', 'n = 2^25', 'n = 2^26', 'n = 2^29', 'n = 2^30'])
  })

  it('counts n FLOPs and 12n bytes (two float inputs read, one float output written)', () => {
    for (const c of cases) {
      const n = c.params.n!
      expect(vectorAddition.flops(c)).toBe(n)
      expect(vectorAddition.bytes(c, 'float32')).toBe(12 * n)
      expect(vectorAddition.elements(c)).toEqual({ d_input1: n, d_input2: n, d_output: n })
    }
    expect(vectorAddition.bytes(cases[0]!, 'float32')).toBe(12_582_912)
  })

  it('has the float32 tolerance rtol 2e-4, atol 1e-4 and only float32', () => {
    expect(vectorAddition.dtypes).toEqual(['float32'])
    expect(toleranceFor(vectorAddition, 'float32')).toEqual({ rtol: 2e-4, atol: 1e-4 })
  })

  it('has a CUDA reference at an absolute path that exists', () => {
    expectCudaReference(vectorAddition)
  })

  it('gets the defaults defineProblem fills in', () => {
    expect(vectorAddition.inputRange).toEqual([-1, 1])
    expect(vectorAddition.description).not.toBe('')
  })
})

describe('matrix-multiplication', () => {
  const cases = matrixMultiplication.cases('float32')

  it('is exported as matmul too', () => {
    expect(matmul).toBe(matrixMultiplication)
  })

  it('has the four shapes 4096³, 8192×4096×8192, 4096×8192×4096 and 8192³', () => {
    expect(cases.map((c) => [c.params.m, c.params.n, c.params.k])).toEqual([
      [4096, 4096, 4096],
      [8192, 4096, 8192],
      [4096, 8192, 4096],
      [8192, 8192, 8192],
    ])
    expect(cases.map((c) => c.name)).toEqual(['4096x4096x4096', '8192x4096x8192', '4096x8192x4096', '8192x8192x8192'])
  })

  it('counts 2mnk FLOPs and 4(mk + kn + mn) bytes', () => {
    for (const c of cases) {
      const { m, n, k } = c.params as { m: number; n: number; k: number }
      expect(matrixMultiplication.flops(c)).toBe(2 * m * n * k)
      expect(matrixMultiplication.bytes(c, 'float32')).toBe(4 * (m * k + k * n + m * n))
      expect(matrixMultiplication.elements(c)).toEqual({ input_a: m * k, input_b: k * n, output_c: m * n })
    }
    // 8192 × 4096 × 8192, worked by hand: A is 8192×8192, B 8192×4096, C 8192×4096.
    const c = cases[1]!
    expect(matrixMultiplication.flops(c)).toBe(549_755_813_888)
    expect(matrixMultiplication.bytes(c, 'float32')).toBe(4 * (67_108_864 + 33_554_432 + 33_554_432))
  })

  it('has the float32 tolerance rtol 2e-4, atol 5e-3 and a cuBLAS reference', () => {
    expect(toleranceFor(matrixMultiplication, 'float32')).toEqual({ rtol: 2e-4, atol: 5e-3 })
    expect(matrixMultiplication.reference).toEqual({ kind: 'gemm' })
  })
})

const MINIMAL: ProblemDefinition = {
  name: 'scale',
  signature: [
    { name: 'x', kind: 'input' },
    { name: 'y', kind: 'output' },
    { name: 'n', kind: 'scalar', ctype: 'size_t' },
  ],
  dtypes: ['float32', 'float16'],
  cases: () => [{ name: 'n = 10', params: { n: 10 } }],
  elements: ({ params }) => ({ x: params.n!, y: params.n! }),
  flops: ({ params }) => params.n!,
  tolerance: { float32: { rtol: 1e-5, atol: 1e-6 }, float16: { rtol: 1e-2, atol: 1e-3 } },
  reference: { kind: 'cuda', file: '/abs/scale.cu' },
}

describe('defineProblem', () => {
  it('derives the default byte count from the dtype of each pointer', () => {
    const problem = defineProblem(MINIMAL)
    const c = problem.cases('float32')[0]!
    expect(problem.bytes(c, 'float32')).toBe(80)
    expect(problem.bytes(c, 'float16')).toBe(40)
  })

  it("uses a pointer's own dtype in the default byte count", () => {
    const problem = defineProblem({
      ...MINIMAL,
      signature: [
        { name: 'x', kind: 'input' },
        { name: 'y', kind: 'output', dtype: 'int32' },
      ],
    })
    expect(problem.bytes(problem.cases('float16')[0]!, 'float16')).toBe(10 * 2 + 10 * 4)
  })

  it('keeps an explicit bytes function and input range', () => {
    const problem = defineProblem({ ...MINIMAL, bytes: () => 7, inputRange: [1, 2] })
    expect(problem.bytes(problem.cases('float32')[0]!, 'float32')).toBe(7)
    expect(problem.inputRange).toEqual([1, 2])
  })

  it('fails, naming the dtype, when a dtype has no tolerance', () => {
    expect(() => defineProblem({ ...MINIMAL, tolerance: { float32: { rtol: 1e-5, atol: 1e-6 } } })).toThrow(
      "problem 'scale': no tolerance for float16",
    )
  })

  it('fails on a relative reference path, showing it', () => {
    expect(() => defineProblem({ ...MINIMAL, reference: { kind: 'cuda', file: 'refs/scale.cu' } })).toThrow(
      "problem 'scale': the reference file must be an absolute path (got refs/scale.cu)",
    )
  })

  it('fails with no dtypes', () => {
    expect(() => defineProblem({ ...MINIMAL, dtypes: [] })).toThrow("problem 'scale': no dtypes")
  })

  it("checks the signature, naming the problem", () => {
    expect(() => defineProblem({ ...MINIMAL, signature: [{ name: 'x', kind: 'input' }] })).toThrow(
      "problem 'scale': the signature has no output parameter",
    )
  })

  it('names a parameter that the elements function leaves out when bytes are counted', () => {
    const problem = defineProblem({ ...MINIMAL, elements: ({ params }) => ({ x: params.n! }) })
    expect(() => problem.bytes(problem.cases('float32')[0]!, 'float32')).toThrow("no element count for parameter 'y' (got undefined)")
  })
})

describe('elementsOf', () => {
  it('returns a positive integer count', () => {
    expect(elementsOf({ a: 3 }, 'a')).toBe(3)
  })

  it.each([0, -1, 1.5, Number.NaN, 2 ** 53])('rejects %d', (count) => {
    expect(() => elementsOf({ a: count }, 'a')).toThrow(`no element count for parameter 'a' (got ${count})`)
  })
})

describe('toleranceFor', () => {
  it('names the problem, the dtype and the supported dtypes for an unsupported dtype', () => {
    expect(() => toleranceFor(vectorAddition, 'float16')).toThrow(
      'vector-addition has no float16 variant (it has: float32)',
    )
  })
})

describe('problemDtype', () => {
  it("accepts each of the problem's dtypes", () => {
    for (const dtype of matrixMultiplication.dtypes) expect(problemDtype(matrixMultiplication, dtype, 'option dtype')).toBe(dtype)
  })

  it('refuses a dtype the problem has no variant of, with its dtypes', () => {
    expect(() => problemDtype(matrixMultiplication, 'float64', 'option dtype')).toThrow(
      'option dtype: matrix-multiplication has no float64 variant (it has: float32, float16, bfloat16)',
    )
    expect(() => problemDtype(vectorAddition, 'int32', 'option dtype')).toThrow('option dtype: vector-addition has no int32 variant (it has: float32)')
  })

  it("refuses an unknown dtype, suggesting the problem's closest ones", () => {
    expect(() => problemDtype(matrixMultiplication, 'float33', 'option dtype')).toThrow(
      "option dtype: unknown dtype 'float33' (did you mean 'float32'?); matrix-multiplication has float32, float16, bfloat16",
    )
    expect(() => problemDtype(vectorAddition, 'Float32', 'option dtype')).toThrow("unknown dtype 'Float32' (did you mean 'float32'?)")
    expect(() => problemDtype(vectorAddition, 32, 'option dtype')).toThrow('option dtype must be one of float32 (got 32)')
  })
})
