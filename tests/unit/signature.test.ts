import { describe, expect, it } from 'vitest'
import {
  gemmRelu,
  lowerTrigMatmul,
  matrixMultiplication,
  matrixVector,
  mxfp4Dequantize,
  mxfp8Dequantize,
  nvfp4Dequantize,
  nvfp4Gemm,
  nvfp4Quantize,
  squareMatmul,
  symmetricMatmul,
  vectorAddition,
} from '../../problems/index.js'
import { casePlanner } from '../../src/vitest/case-plan.js'
import { resolveSpec } from '../../src/vitest/resolve-spec.js'
import { defineProblem, type Problem } from '../../src/spec/problem.js'
import { cPrototype, cPrototypeAlternatives, koffiParams, paramDtype, validateSignature, type ParamSpec } from '../../src/spec/signature.js'

describe('cPrototype', () => {
  it("spells vector-addition's Tensara signature exactly", () => {
    expect(cPrototype(vectorAddition.signature, 'float32')).toBe(
      'void solution(const float* d_input1, const float* d_input2, float* d_output, size_t n)',
    )
  })

  it("spells matrix-multiplication's Tensara signature exactly", () => {
    expect(cPrototype(matrixMultiplication.signature, 'float32')).toBe(
      'void solution(const float* input_a, const float* input_b, float* output_c, size_t m, size_t n, size_t k)',
    )
  })

  it('uses the CUDA spellings of every dtype for pointer parameters', () => {
    const signature: ParamSpec[] = [
      { name: 'x', kind: 'input' },
      { name: 'y', kind: 'output' },
    ]
    expect(cPrototype(signature, 'float16')).toBe('void solution(const __half* x, __half* y)')
    expect(cPrototype(signature, 'bfloat16')).toBe('void solution(const __nv_bfloat16* x, __nv_bfloat16* y)')
    expect(cPrototype(signature, 'float64')).toBe('void solution(const double* x, double* y)')
    expect(cPrototype(signature, 'int32')).toBe('void solution(const int* x, int* y)')
    expect(cPrototype(signature, 'uint32')).toBe('void solution(const uint32_t* x, uint32_t* y)')
    expect(cPrototype(signature, 'uint64')).toBe('void solution(const uint64_t* x, uint64_t* y)')
    expect(cPrototype(signature, 'uint8')).toBe('void solution(const uint8_t* x, uint8_t* y)')
  })

  it("keeps a parameter's own dtype over the bench's, and scalars as declared", () => {
    const signature: ParamSpec[] = [
      { name: 'values', kind: 'input' },
      { name: 'indices', kind: 'input', dtype: 'int32' },
      { name: 'out', kind: 'output', dtype: 'float32' },
      { name: 'count', kind: 'scalar', ctype: 'int' },
      { name: 'alpha', kind: 'scalar', ctype: 'float' },
      { name: 'beta', kind: 'scalar', ctype: 'double' },
    ]
    expect(cPrototype(signature, 'bfloat16', 'reference')).toBe(
      'void reference(const __nv_bfloat16* values, const int* indices, float* out, int count, float alpha, double beta)',
    )
  })
})

describe('array parameters', () => {
  const signature: ParamSpec[] = [
    { name: 'x', kind: 'input' },
    { name: 'y', kind: 'output' },
    { name: 'shape', kind: 'array', ctype: 'size_t', memory: 'device', values: () => [2, 3] },
    { name: 'strides', kind: 'array', ctype: 'int', memory: 'host', values: () => [3, 1] },
    { name: 'ndim', kind: 'scalar', ctype: 'size_t' },
  ]

  it('are const pointers to their C type in the prototype, and pointers for koffi', () => {
    expect(cPrototype(signature, 'float32')).toBe(
      'void solution(const float* x, float* y, const size_t* shape, const int* strides, size_t ndim)',
    )
    expect(koffiParams(signature)).toEqual(['void *', 'void *', 'void *', 'void *', 'size_t'])
  })

  it('may also be spelled without const; a signature without arrays has no other spelling', () => {
    expect(cPrototypeAlternatives(signature, 'float32', 'reference')).toEqual([
      'void reference(const float* x, float* y, size_t* shape, int* strides, size_t ndim)',
    ])
    expect(cPrototypeAlternatives(vectorAddition.signature, 'float32')).toEqual([])
  })

  it('have no dtype', () => {
    expect(() => paramDtype(signature[2]!, 'float32')).toThrow("parameter 'shape' is an array, not a buffer")
  })
})

describe('element aliases', () => {
  it("spell NVFP4's scales as Tensara's float8 too (__nv_fp8_e4m3), and nothing else differs", () => {
    expect(cPrototypeAlternatives(nvfp4Dequantize.signature, 'float32')).toEqual([
      'void solution(const uint8_t* q, const __nv_fp8_e4m3* scale, float sf_g, float* out, size_t m, size_t k)',
    ])
    expect(cPrototypeAlternatives(nvfp4Quantize.signature, 'float16')).toEqual([
      'void solution(const __half* a, float sf_g, uint8_t* q, __nv_fp8_e4m3* scale, size_t m, size_t k)',
    ])
    expect(cPrototypeAlternatives(nvfp4Gemm.signature, 'float16')).toEqual([
      'void solution(const uint8_t* q_a, const __nv_fp8_e4m3* scale_a, float sf_g_a, const uint8_t* q_b, ' +
        'const __nv_fp8_e4m3* scale_b, float sf_g_b, __half* c, size_t m, size_t n, size_t k)',
    ])
    // The MX formats' scales are E8M0 bytes, which Tensara types uint8_t.
    expect(cPrototypeAlternatives(mxfp8Dequantize.signature, 'float32')).toEqual([])
  })
})

describe('paramDtype', () => {
  it("returns the parameter's dtype, or the bench's", () => {
    expect(paramDtype({ name: 'a', kind: 'input' }, 'float16')).toBe('float16')
    expect(paramDtype({ name: 'a', kind: 'input', dtype: 'int32' }, 'float16')).toBe('int32')
  })

  it('rejects a scalar', () => {
    expect(() => paramDtype({ name: 'n', kind: 'scalar', ctype: 'size_t' }, 'float32')).toThrow("parameter 'n' is a scalar, not a buffer")
  })
})

describe('koffiParams', () => {
  it('passes device pointers as void * and scalars as their C type, in order', () => {
    expect(koffiParams(matrixMultiplication.signature)).toEqual(['void *', 'void *', 'void *', 'size_t', 'size_t', 'size_t'])
    expect(
      koffiParams([
        { name: 'x', kind: 'input', dtype: 'float16' },
        { name: 'n', kind: 'scalar', ctype: 'int' },
        { name: 'y', kind: 'output' },
        { name: 's', kind: 'scalar', ctype: 'double' },
      ]),
    ).toEqual(['void *', 'int', 'void *', 'double'])
  })
})

describe('validateSignature', () => {
  it('accepts the shipped problems', () => {
    expect(() => validateSignature(vectorAddition.signature, 'vector-addition')).not.toThrow()
    expect(() => validateSignature(matrixMultiplication.signature, 'matrix-multiplication')).not.toThrow()
  })

  it('requires an output parameter', () => {
    expect(() =>
      validateSignature(
        [
          { name: 'a', kind: 'input' },
          { name: 'n', kind: 'scalar', ctype: 'size_t' },
        ],
        "problem 'p'",
      ),
    ).toThrow("problem 'p': the signature has no output parameter")
  })

  it('rejects a name used twice', () => {
    expect(() =>
      validateSignature(
        [
          { name: 'a', kind: 'input' },
          { name: 'a', kind: 'output' },
        ],
        "problem 'p'",
      ),
    ).toThrow("problem 'p': parameter 'a' appears twice")
  })

  it.each(['2fast', 'has space', 'a-b', '', 'x;y', 'ünï'])('rejects %j, which is not a C identifier', (name) => {
    expect(() =>
      validateSignature(
        [
          { name: 'out', kind: 'output' },
          { name, kind: 'scalar', ctype: 'int' },
        ],
        "problem 'p'",
      ),
    ).toThrow(`problem 'p': parameter name '${name}' is not a C identifier`)
  })

  it('accepts underscores and digits after the first character', () => {
    expect(() =>
      validateSignature(
        [
          { name: '_a1', kind: 'input' },
          { name: 'out_2', kind: 'output' },
        ],
        'p',
      ),
    ).not.toThrow()
  })
})

describe('output initial values', () => {
  it('the GEMM family starts its output at zero, and the case plan carries it to the device host', () => {
    for (const problem of [matrixMultiplication, squareMatmul, matrixVector, gemmRelu]) {
      expect(problem.signature.filter((p) => p.kind === 'output').map((p) => 'initial' in p && p.initial)).toEqual(['zero'])
    }
    expect(vectorAddition.signature.some((p) => p.kind === 'output' && 'initial' in p)).toBe(false)
    const settings = { devices: [0], cacheDir: '/nonexistent', measure: {} }
    const plan = (problem: Problem) => {
      const spec = resolveSpec({ problem, solution: 'x.cu' }, settings, 'test')
      const planner = casePlanner('test', spec, { library: '/x.so', source: 'x.cu', entry: 'solution', params: [] }, { kind: 'gemm' } as never)
      return planner(spec.cases[0]!, 'verify', spec.options)
    }
    expect(plan(matrixMultiplication as Problem).args.find((a) => a.kind === 'output')).toMatchObject({ name: 'output_c', initial: 'zero' })
    expect(plan(vectorAddition as Problem).args.find((a) => a.kind === 'output')).not.toHaveProperty('initial')
  })
})

describe('input ranges', () => {
  it("draws an input from its own range where it has one, and from the problem's otherwise", () => {
    const settings = { devices: [0], cacheDir: '/nonexistent', measure: {} }
    const plan = (problem: Problem) => {
      const spec = resolveSpec({ problem, solution: 'x.cu' }, settings, 'test')
      const planner = casePlanner('test', spec, { library: '/x.so', source: 'x.cu', entry: 'solution', params: [] }, { kind: 'gemm' } as never)
      return planner(spec.cases[0]!, 'verify', spec.options)
    }
    expect(plan(mxfp4Dequantize as Problem).args.filter((a) => a.kind === 'input')).toMatchObject([
      { name: 'q', dtype: 'uint8', count: 524288, range: [0, 256] },
      { name: 'scale', dtype: 'uint8', count: 32768, range: [112, 136] },
    ])
    expect(plan(vectorAddition as Problem).args.find((a) => a.kind === 'input')).toMatchObject({ range: [-1, 1] })
  })
})

describe('structured inputs', () => {
  const settings = { devices: [0], cacheDir: '/nonexistent', measure: {} }
  const plans = (problem: Problem) => {
    const spec = resolveSpec({ problem, solution: 'x.cu' }, settings, 'test')
    const planner = casePlanner('test', spec, { library: '/x.so', source: 'x.cu', entry: 'solution', params: [] }, { kind: 'gemm' } as never)
    return spec.cases.map((c) => planner(c, 'verify', spec.options))
  }

  it('the case plan carries each structured input with its side, for the device host to shape it after the fill', () => {
    const [lower] = plans(lowerTrigMatmul as Problem)
    expect(lower!.args.filter((a) => a.kind === 'input')).toMatchObject([
      { name: 'input_a', count: 2048 * 2048, square: { structure: 'lower-triangular', side: 2048 } },
      { name: 'input_b', count: 2048 * 2048, square: { structure: 'lower-triangular', side: 2048 } },
    ])
    const [symmetric] = plans(symmetricMatmul as Problem)
    expect(symmetric!.args.find((a) => a.kind === 'input')).toMatchObject({ square: { structure: 'symmetric', side: 4096 } })
    expect(plans(vectorAddition as Problem)[0]!.args.find((a) => a.kind === 'input')).not.toHaveProperty('square')
  })

  it('refuses a structured input whose element count is not a square, naming the case, the problem and the input', () => {
    const oblong = defineProblem({
      name: 'oblong',
      signature: [
        { name: 'a', kind: 'input', structure: 'symmetric' },
        { name: 'b', kind: 'output' },
        { name: 'n', kind: 'scalar', ctype: 'size_t' },
      ],
      dtypes: ['float32'],
      cases: () => [{ name: 'n = 12', params: { n: 12 } }],
      elements: ({ params }) => ({ a: params.n!, b: params.n! }),
      flops: ({ params }) => params.n!,
      tolerance: { float32: { rtol: 1e-5, atol: 1e-6 } },
      reference: { kind: 'gemm' },
    })
    expect(() => plans(oblong as Problem)).toThrow(
      "case 'n = 12' of 'oblong': input 'a' is symmetric, so it must be a square matrix, but it has 12 elements",
    )
  })
})
