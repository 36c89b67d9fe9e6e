import { describe, expect, it } from 'vitest'
import { HALF_PRECISION_TOLERANCE } from '../../problems/gemm-common/tolerance.js'
import { gemmRelu } from '../../problems/gemm-relu/index.js'
import { matrixMultiplication } from '../../problems/matrix-multiplication/index.js'
import { matrixVector } from '../../problems/matrix-vector/index.js'
import { squareMatmul } from '../../problems/square-matmul/index.js'
import { cPrototype } from '../../src/spec/signature.js'
import { caseNamed, describeHalfTypeFamily, describeProblem, expectCudaReference } from '../helpers/problem-tests.js'

describe('the half-precision tolerance of the GEMM family', () => {
  it('is two units in the last place relative, 2e-3 absolute', () => {
    expect(HALF_PRECISION_TOLERANCE).toEqual({ float16: { rtol: 2e-3, atol: 2e-3 }, bfloat16: { rtol: 1.6e-2, atol: 2e-3 } })
  })

  it('allows two output roundings apart (2 ulp: 2^-9 for float16, 2^-6 for bfloat16)', () => {
    expect(HALF_PRECISION_TOLERANCE.float16.rtol).toBeGreaterThanOrEqual(2 ** -9)
    expect(HALF_PRECISION_TOLERANCE.bfloat16.rtol).toBeGreaterThanOrEqual(2 ** -6)
  })

  it('covers one-signed fp32 truncation over 9216 / 16 tensor-core steps at partial sums below 32 (ulp 2^-19)', () => {
    const worstAccumulationError = (9216 / 16) * 2 ** -19
    expect(worstAccumulationError).toBeCloseTo(1.1e-3, 4)
    for (const t of Object.values(HALF_PRECISION_TOLERANCE)) expect(t.atol).toBeGreaterThan(worstAccumulationError)
  })
})

describeHalfTypeFamily([matrixMultiplication, squareMatmul, matrixVector, gemmRelu], {
  title: 'supports float32, float16 and bfloat16, with the family tolerance for the 16-bit types',
  float16: { rtol: 2e-3, atol: 2e-3 },
  bfloat16: { rtol: 1.6e-2, atol: 2e-3 },
})

describe.each([squareMatmul, matrixVector, gemmRelu])('$name', (problem) => {
  it('has a CUDA reference named after the slug, at an absolute path that exists', () => {
    expectCudaReference(problem, `${problem.name}.cu`)
  })
})

describe('matrix-multiplication', () => {
  it('keeps its cuBLAS reference and Tensara float32 tolerance', () => {
    expect(matrixMultiplication.reference).toEqual({ kind: 'gemm' })
    expect(matrixMultiplication.tolerance.float32).toEqual({ rtol: 2e-4, atol: 5e-3 })
  })

  it('spells the 16-bit prototypes with the CUDA types', () => {
    expect(cPrototype(matrixMultiplication.signature, 'bfloat16')).toBe(
      'void solution(const __nv_bfloat16* input_a, const __nv_bfloat16* input_b, __nv_bfloat16* output_c, size_t m, size_t n, size_t k)',
    )
  })

  it('moves half the bytes in float16', () => {
    // 8192 × 4096 × 8192: A 8192×8192, B 8192×4096, C 8192×4096, two bytes each.
    expect(matrixMultiplication.bytes(caseNamed(matrixMultiplication, '8192x4096x8192'), 'float16')).toBe(268_435_456)
  })

  it('draws property shapes up to 2048 in every dimension', () => {
    expect(matrixMultiplication.shapes?.ranges).toEqual({ m: [1, 2048], n: [1, 2048], k: [1, 2048] })
  })
})

// Each test checks the facts its entry gives (see ProblemFacts), under the entry's title.
describeProblem(squareMatmul, {
  "has Tensara's signature (input_a, input_b, output_c, n)": {
    signature: [
      ['input_a', 'input', undefined],
      ['input_b', 'input', undefined],
      ['output_c', 'output', undefined],
      ['n', 'scalar', 'size_t'],
    ],
    prototypes: {
      float32: 'void solution(const float* input_a, const float* input_b, float* output_c, size_t n)',
      float16: 'void solution(const __half* input_a, const __half* input_b, __half* output_c, size_t n)',
    },
  },
  "has Tensara's five sizes, 4096 … 9216": {
    cases: ['4096x4096', '6144x6144', '7168x7168', '8192x8192', '9216x9216'],
    params: [{ n: 4096 }, { n: 6144 }, { n: 7168 }, { n: 8192 }, { n: 9216 }],
  },
  'counts 2n³ FLOPs and three n×n matrices moved once': {
    counts: {
      '6144x6144': {
        elements: { input_a: 37_748_736, input_b: 37_748_736, output_c: 37_748_736 },
        flops: 463_856_467_968,
        bytes: { float32: 452_984_832, bfloat16: 226_492_416 },
      },
      '9216x9216': { flops: 1_565_515_579_392 },
    },
  },
  "has Tensara's float32 tolerance rtol 2e-4, atol 5e-3": { float32: { rtol: 2e-4, atol: 5e-3 } },
  'draws property shapes up to 2048': { ranges: { n: [1, 2048] } },
})

describeProblem(matrixVector, {
  "has Tensara's signature (input_a, input_b, output_c, m, k)": {
    signature: [
      ['input_a', 'input', undefined],
      ['input_b', 'input', undefined],
      ['output_c', 'output', undefined],
      ['m', 'scalar', 'size_t'],
      ['k', 'scalar', 'size_t'],
    ],
    prototypes: { float32: 'void solution(const float* input_a, const float* input_b, float* output_c, size_t m, size_t k)' },
  },
  "has Tensara's five shapes: M from 4096 to 9216, K = 4096": {
    cases: ['M=4096, K=4096', 'M=6144, K=4096', 'M=7168, K=4096', 'M=8192, K=4096', 'M=9216, K=4096'],
    params: [
      { m: 4096, k: 4096 },
      { m: 6144, k: 4096 },
      { m: 7168, k: 4096 },
      { m: 8192, k: 4096 },
      { m: 9216, k: 4096 },
    ],
  },
  'counts 2mk FLOPs and moves the matrix, the vector and the result once': {
    counts: {
      'M=7168, K=4096': {
        elements: { input_a: 29_360_128, input_b: 4096, output_c: 7168 },
        flops: 58_720_256,
        bytes: { float32: 117_485_568, float16: 58_742_784 },
      },
    },
  },
  "has Tensara's float32 tolerance rtol 2e-4, atol 3e-3": { float32: { rtol: 2e-4, atol: 3e-3 } },
  'draws property shapes up to 4096 rows and columns': { ranges: { m: [1, 4096], k: [1, 4096] } },
})

describeProblem(gemmRelu, {
  "has Tensara's signature (A, W, b, C, B, N, M)": {
    signature: [
      ['A', 'input', undefined],
      ['W', 'input', undefined],
      ['b', 'input', undefined],
      ['C', 'output', undefined],
      ['B', 'scalar', 'size_t'],
      ['N', 'scalar', 'size_t'],
      ['M', 'scalar', 'size_t'],
    ],
    prototypes: { float32: 'void solution(const float* A, const float* W, const float* b, float* C, size_t B, size_t N, size_t M)' },
  },
  "has Tensara's six (batch, in, out) shapes": {
    cases: [
      'B=512, N=6144, M=1024',
      'B=512, N=8192, M=1024',
      'B=512, N=8192, M=2048',
      'B=1024, N=2048, M=2048',
      'B=1024, N=4096, M=2048',
      'B=1024, N=4096, M=4096',
    ],
    also: () => expect(gemmRelu.cases('float32')[2]!.params).toEqual({ B: 512, N: 8192, M: 2048 }),
  },
  "counts Tensara's 2·B·N·M + B·M FLOPs and moves A, W, b and C once": {
    counts: {
      'B=512, N=8192, M=2048': {
        elements: { A: 4_194_304, W: 16_777_216, b: 2048, C: 1_048_576 },
        flops: 17_180_917_760,
        bytes: { float32: 88_088_576, bfloat16: 44_044_288 },
      },
      'B=1024, N=4096, M=4096': { flops: 34_363_932_672 },
    },
  },
  "has Tensara's float32 rtol 3e-3, and atol 1e-3 (Tensara's 2e-4 refuses in-order fp32 sums)": { float32: { rtol: 3e-3, atol: 1e-3 } },
  'draws property shapes up to a batch of 1024 and 2048 features': { ranges: { B: [1, 1024], N: [1, 2048], M: [1, 2048] } },
})
