// The matrix-product family: matmul-3d, matmul-4d, diagonal-matmul, lower- and upper-trig-matmul, symmetric-matmul,
// matrix-power, and the fused GEMMs gemm-multiply-leakyrelu, matmul-swish, matmul-swish-scaling and matmul-sigmoid-sum.
// Signatures, Tensara's cases, element, FLOP and byte counts worked out by hand, tolerances, shape
// ranges and references.
import { expect, it } from 'vitest'
import { diagonalMatmul } from '../../problems/diagonal-matmul/index.js'
import { gemmMultiplyLeakyRelu } from '../../problems/gemm-multiply-leakyrelu/index.js'
import { lowerTrigMatmul } from '../../problems/lower-trig-matmul/index.js'
import { matmul3d } from '../../problems/matmul-3d/index.js'
import { matmul4d } from '../../problems/matmul-4d/index.js'
import { matmulSigmoidSum } from '../../problems/matmul-sigmoid-sum/index.js'
import { matmulSwishScaling } from '../../problems/matmul-swish-scaling/index.js'
import { matmulSwish } from '../../problems/matmul-swish/index.js'
import { matrixPower } from '../../problems/matrix-power/index.js'
import { symmetricMatmul } from '../../problems/symmetric-matmul/index.js'
import { upperTrigMatmul } from '../../problems/upper-trig-matmul/index.js'
import { describeFloat32Family, describeProblem } from '../helpers/problem-tests.js'

/** Expected signature rows from 'name: input', 'name: output' or 'name: <scalar ctype>'. */
const rows = (...params: readonly string[]) =>
  params.map((param) => {
    const [name, kind] = param.split(': ') as [string, string]
    return kind === 'input' || kind === 'output' ? ([name, kind, undefined] as const) : ([name, 'scalar', kind] as const)
  })

describeFloat32Family(
  [
    { problem: matmul3d, reference: 'matmul-3d.cu' },
    { problem: matmul4d, reference: 'matmul-4d.cu' },
    { problem: diagonalMatmul, reference: 'diagonal-matmul.cu' },
    { problem: lowerTrigMatmul, reference: 'lower-trig-matmul.cu' },
    { problem: upperTrigMatmul, reference: 'upper-trig-matmul.cu' },
    // A general product assumes no symmetry: square-matmul's reference serves.
    { problem: symmetricMatmul, reference: 'square-matmul.cu' },
    { problem: matrixPower, reference: 'matrix-power.cu' },
    { problem: gemmMultiplyLeakyRelu, reference: 'gemm-multiply-leakyrelu.cu' },
    { problem: matmulSwish, reference: 'matmul-swish.cu' },
    { problem: matmulSwishScaling, reference: 'matmul-swish-scaling.cu' },
    { problem: matmulSigmoidSum, reference: 'matmul-sigmoid-sum.cu' },
  ],
  (problem) => {
    // Those whose inputs Tensara draws otherwise state their range in their own facts.
    if (problem === matrixPower || problem === matmulSwish) return
    it('keeps inputs in [-1, 1], as Tensara draws them', () => {
      expect(problem.inputRange).toEqual([-1, 1])
    })
  },
)

describeProblem(matmul3d, {
  "has Tensara's signature (A, B, C, n, m, k, l), C starting at zero": {
    signature: rows('A: input', 'B: input', 'C: output', 'n: size_t', 'm: size_t', 'k: size_t', 'l: size_t'),
    prototypes: { float32: 'void solution(const float* A, const float* B, float* C, size_t n, size_t m, size_t k, size_t l)' },
    also: () => expect(matmul3d.signature[2]).toEqual({ name: 'C', kind: 'output', initial: 'zero' }),
  },
  "has Tensara's four (N, M, K, L) shapes": {
    cases: ['32x4096x4096 x 4096x4096', '16x8192x8192 x 8192x4096', '64x4096x4096 x 4096x8192', '8x8192x8192 x 8192x8192'],
    params: [
      { n: 32, m: 4096, k: 4096, l: 4096 },
      { n: 16, m: 8192, k: 8192, l: 4096 },
      { n: 64, m: 4096, k: 4096, l: 8192 },
      { n: 8, m: 8192, k: 8192, l: 8192 },
    ],
  },
  'counts 2·N·M·K·L FLOPs and moves A, B and C once': {
    counts: {
      // A 16·8192·8192, B 8192·4096, C 16·8192·4096; 2·16·8192·8192·4096 = 2^43.
      '16x8192x8192 x 8192x4096': {
        elements: { A: 1_073_741_824, B: 33_554_432, C: 536_870_912 },
        flops: 8_796_093_022_208,
        bytes: { float32: 6_576_668_672 },
      },
      // 2·32·4096³ = 2^42.
      '32x4096x4096 x 4096x4096': { flops: 4_398_046_511_104 },
    },
  },
  "has Tensara's tolerance rtol 2e-4, atol 3e-3": {
    float32: { rtol: 2e-4, atol: 3e-3 },
    ranges: { n: [1, 8], m: [1, 512], k: [1, 512], l: [1, 512] },
  },
})

describeProblem(matmul4d, {
  "has Tensara's signature (A, B, C, b, i, j, l, k), C starting at zero": {
    signature: rows('A: input', 'B: input', 'C: output', 'b: size_t', 'i: size_t', 'j: size_t', 'l: size_t', 'k: size_t'),
    prototypes: { float32: 'void solution(const float* A, const float* B, float* C, size_t b, size_t i, size_t j, size_t l, size_t k)' },
    also: () => expect(matmul4d.signature[2]).toEqual({ name: 'C', kind: 'output', initial: 'zero' }),
  },
  "has Tensara's four (b, i, j, l, k) shapes": {
    cases: ['16x256x512x256 x 256x768', '8x128x256x128 x 128x512', '32x64x128x64 x 64x256', '4x32x64x32 x 32x128'],
    params: [
      { b: 16, i: 256, j: 512, l: 256, k: 768 },
      { b: 8, i: 128, j: 256, l: 128, k: 512 },
      { b: 32, i: 64, j: 128, l: 64, k: 256 },
      { b: 4, i: 32, j: 64, l: 32, k: 128 },
    ],
  },
  'counts 2·b·i·j·l·k FLOPs and moves A, B and C once': {
    counts: {
      // A 8·128·256·128 = 2^25, B 128·512, C 8·128·256·512 = 2^27; 2·8·128·256·128·512 = 2^35.
      '8x128x256x128 x 128x512': {
        elements: { A: 33_554_432, B: 65_536, C: 134_217_728 },
        flops: 34_359_738_368,
        bytes: { float32: 671_350_784 },
      },
      // 2·16·256·512·256·768 = 2^30 · 768.
      '16x256x512x256 x 256x768': { flops: 824_633_720_832 },
    },
  },
  "has Tensara's tolerance rtol 2e-4, atol 6e-4": {
    float32: { rtol: 2e-4, atol: 6e-4 },
    ranges: { b: [1, 4], i: [1, 64], j: [1, 64], l: [1, 512], k: [1, 512] },
  },
})

describeProblem(diagonalMatmul, {
  "has Tensara's signature (diagonal_a, input_b, output_c, n, m)": {
    signature: rows('diagonal_a: input', 'input_b: input', 'output_c: output', 'n: size_t', 'm: size_t'),
    prototypes: { float32: 'void solution(const float* diagonal_a, const float* input_b, float* output_c, size_t n, size_t m)' },
  },
  "has Tensara's four (N, M) shapes, named as Tensara names them": {
    cases: ['2048 x 2048x2048', '4096 x 4096x4096', '6144 x 6144x6144', '8192 x 8192x4096'],
    params: [
      { n: 2048, m: 2048 },
      { n: 4096, m: 4096 },
      { n: 6144, m: 6144 },
      { n: 8192, m: 4096 },
    ],
  },
  "counts Tensara's N·M FLOPs (one multiply per output) and moves the diagonal, B and C once": {
    counts: {
      // 4(8192 + 2 · 8192 · 4096) bytes.
      '8192 x 8192x4096': {
        elements: { diagonal_a: 8192, input_b: 33_554_432, output_c: 33_554_432 },
        flops: 33_554_432,
        bytes: { float32: 268_468_224 },
      },
    },
  },
  "has Tensara's tolerance rtol 1e-4, atol 3e-5": { float32: { rtol: 1e-4, atol: 3e-5 }, ranges: { n: [1, 2048], m: [1, 2048] } },
})

/** Tensara's signature of the square products (triangular and symmetric), and its float32 prototype. */
const SQUARE_PRODUCT = {
  signature: rows('input_a: input', 'input_b: input', 'output_c: output', 'n: size_t'),
  prototypes: { float32: 'void solution(const float* input_a, const float* input_b, float* output_c, size_t n)' },
} as const

describeProblem(lowerTrigMatmul, {
  "has Tensara's signature (input_a, input_b, output_c, n), C starting as NaN so that its zero triangle must be written": {
    ...SQUARE_PRODUCT,
    also: () => expect(lowerTrigMatmul.signature[2]).toEqual({ name: 'output_c', kind: 'output' }),
  },
  "has Tensara's four sizes, 2048 … 8192": {
    cases: ['2048x2048', '4096x4096', '6144x6144', '8192x8192'],
    params: [{ n: 2048 }, { n: 4096 }, { n: 6144 }, { n: 8192 }],
  },
  "counts Tensara's n(n+1)(n+2)/3 FLOPs and moves three n×n matrices": {
    counts: {
      // 4096 · 4097 · 4098 / 3; 3 · 4 · 4096² bytes.
      '4096x4096': {
        elements: { input_a: 16_777_216, input_b: 16_777_216, output_c: 16_777_216 },
        flops: 22_923_272_192,
        bytes: { float32: 201_326_592 },
      },
      '8192x8192': { flops: 183_319_052_288 },
    },
  },
  "has Tensara's tolerance rtol 8e-4, atol 2e-2": {
    float32: { rtol: 8e-4, atol: 2e-2 },
    ranges: { n: [1, 2048] },
    also: () => expect(lowerTrigMatmul.description).toContain('tril(A)·tril(B)'),
  },
})

describeProblem(upperTrigMatmul, {
  "has Tensara's signature (input_a, input_b, output_c, n), C starting as NaN so that its zero triangle must be written": {
    ...SQUARE_PRODUCT,
    also: () => expect(upperTrigMatmul.signature[2]).toEqual({ name: 'output_c', kind: 'output' }),
  },
  "has Tensara's four sizes, 2048 … 8192": { cases: ['2048x2048', '4096x4096', '6144x6144', '8192x8192'] },
  "counts Tensara's n(n+1)(n+2)/3 FLOPs, as for the lower triangles": {
    // 2048 · 2049 · 2050 / 3.
    counts: { '2048x2048': { flops: 2_867_507_200 } },
  },
  "has Tensara's tolerance rtol 1e-4, atol 1e-3": {
    float32: { rtol: 1e-4, atol: 1e-3 },
    also: () => expect(upperTrigMatmul.description).toContain('triu(A)·triu(B)'),
  },
})

describeProblem(symmetricMatmul, {
  "has Tensara's signature (input_a, input_b, output_c, n), C starting at zero": {
    ...SQUARE_PRODUCT,
    also: () => expect(symmetricMatmul.signature[2]).toEqual({ name: 'output_c', kind: 'output', initial: 'zero' }),
  },
  "has Tensara's five sizes, 4096 … 9216": {
    cases: ['4096x4096', '6144x6144', '7168x7168', '8192x8192', '9216x9216'],
    params: [{ n: 4096 }, { n: 6144 }, { n: 7168 }, { n: 8192 }, { n: 9216 }],
  },
  'counts 2n³ FLOPs and moves three n×n matrices': {
    counts: {
      '9216x9216': {
        elements: { input_a: 84_934_656, input_b: 84_934_656, output_c: 84_934_656 },
        flops: 1_565_515_579_392,
        bytes: { float32: 1_019_215_872 },
      },
    },
  },
  "has Tensara's tolerance rtol 1e-6, atol 5e-3": { float32: { rtol: 1e-6, atol: 5e-3 }, ranges: { n: [1, 2048] } },
})

describeProblem(matrixPower, {
  "has Tensara's signature (input_matrix, n, output_matrix, size), the power before the output": {
    signature: rows('input_matrix: input', 'n: size_t', 'output_matrix: output', 'size: size_t'),
    prototypes: { float32: 'void solution(const float* input_matrix, size_t n, float* output_matrix, size_t size)' },
    also: () => expect(matrixPower.signature[2]).toEqual({ name: 'output_matrix', kind: 'output', initial: 'zero' }),
  },
  "has Tensara's nine cases: sizes 512, 1024, 2048 × powers 2, 4, 8": {
    cases: [512, 1024, 2048].flatMap((size) => [2, 4, 8].map((n) => `${size}x${size} power=${n}`)),
    also: () => {
      expect(matrixPower.cases('float32')[0]!.params).toEqual({ n: 2, size: 512 })
      expect(matrixPower.cases('float32')[8]!.params).toEqual({ n: 8, size: 2048 })
    },
  },
  "counts Tensara's (n − 1)·2·size³ FLOPs, 0 below n = 2, and moves A and C once": {
    counts: {
      // 7 · 2 · 2048³; 2 · 4 · 2048² bytes.
      '2048x2048 power=8': {
        elements: { input_matrix: 4_194_304, output_matrix: 4_194_304 },
        flops: 120_259_084_288,
        bytes: { float32: 33_554_432 },
      },
      '512x512 power=2': { flops: 268_435_456 },
    },
    also: () => {
      expect(matrixPower.flops({ name: 'A¹', params: { n: 1, size: 64 } })).toBe(0)
      expect(matrixPower.flops({ name: 'A⁰', params: { n: 0, size: 64 } })).toBe(0)
    },
  },
  "has Tensara's tolerance rtol 1e-4, atol 1e-3, and inputs in [-0.05, 0.05]": {
    float32: { rtol: 1e-4, atol: 1e-3 },
    ranges: { n: [2, 8], size: [1, 512] },
    also: () => expect(matrixPower.inputRange).toEqual([-0.05, 0.05]),
  },
})

const FUSED_CASES = ['512x512 x 512x512', '1024x1024 x 1024x512', '512x512 x 512x1024', '1024x1024 x 1024x1024']

describeProblem(gemmMultiplyLeakyRelu, {
  "has Tensara's signature (A, B, C, alpha, output, M, N, K), alpha before the output": {
    signature: rows('A: input', 'B: input', 'C: input', 'alpha: float', 'output: output', 'M: size_t', 'N: size_t', 'K: size_t'),
    prototypes: {
      float32: 'void solution(const float* A, const float* B, const float* C, float alpha, float* output, size_t M, size_t N, size_t K)',
    },
  },
  "has Tensara's four (M, N, K) with alpha 0.01, 0.05, 0.1, 0.2": {
    cases: FUSED_CASES,
    params: [
      { M: 512, N: 512, K: 512, alpha: 0.01 },
      { M: 1024, N: 512, K: 1024, alpha: 0.05 },
      { M: 512, N: 1024, K: 512, alpha: 0.1 },
      { M: 1024, N: 1024, K: 1024, alpha: 0.2 },
    ],
  },
  "counts Tensara's 2MNK + 2MN FLOPs and moves A, B, C and the output once": {
    counts: {
      // M = 1024, N = 512, K = 1024: 2·1024·512·1024 + 2·1024·512; 4(1024² + 3·1024·512) bytes.
      '1024x1024 x 1024x512': {
        elements: { A: 1_048_576, B: 524_288, C: 524_288, output: 524_288 },
        flops: 1_074_790_400,
        bytes: { float32: 10_485_760 },
      },
    },
  },
  "has Tensara's tolerance rtol 3e-4, atol 1e-4": { float32: { rtol: 3e-4, atol: 1e-4 }, ranges: { M: [1, 1024], N: [1, 1024], K: [1, 1024] } },
})

describeProblem(matmulSwish, {
  "has Tensara's signature (input_matrix, weight_matrix, bias, scaling_factor, output, batch_size, in_features, out_features)": {
    signature: rows(
      'input_matrix: input',
      'weight_matrix: input',
      'bias: input',
      'scaling_factor: float',
      'output: output',
      'batch_size: size_t',
      'in_features: size_t',
      'out_features: size_t',
    ),
    prototypes: {
      float32:
        'void solution(const float* input_matrix, const float* weight_matrix, const float* bias, float scaling_factor, float* output, ' +
        'size_t batch_size, size_t in_features, size_t out_features)',
    },
  },
  "has Tensara's five configurations, named with Python's spelling of the scale": {
    cases: [
      'B=128, In=1024, Out=512, Scale=2.0',
      'B=256, In=2048, Out=1024, Scale=1.5',
      'B=64, In=512, Out=256, Scale=0.5',
      'B=512, In=4096, Out=2048, Scale=3.0',
      'B=32, In=256, Out=128, Scale=1.0',
    ],
    also: () => expect(matmulSwish.cases('float32').map((c) => c.params.scaling_factor)).toEqual([2, 1.5, 0.5, 3, 1]),
  },
  "counts Tensara's B·O·(2I + 7) FLOPs and moves x, W, bias and the output once": {
    counts: {
      // 512 · 2048 · (2 · 4096 + 7); 4(512·4096 + 2048·4096 + 2048 + 512·2048) bytes.
      'B=512, In=4096, Out=2048, Scale=3.0': {
        elements: { input_matrix: 2_097_152, weight_matrix: 8_388_608, bias: 2048, output: 1_048_576 },
        flops: 8_597_274_624,
        bytes: { float32: 46_145_536 },
      },
      // 32 · 128 · (2 · 256 + 7).
      'B=32, In=256, Out=128, Scale=1.0': { flops: 2_125_824 },
    },
  },
  "has Tensara's tolerance rtol 3e-4, atol 1e-5, inputs in [-0.17, 0.17] for Tensara's 0.1·N(0, 1)": {
    float32: { rtol: 3e-4, atol: 1e-5 },
    ranges: { batch_size: [1, 512], in_features: [1, 2048], out_features: [1, 1024] },
    also: () => expect(matmulSwish.inputRange).toEqual([-0.17, 0.17]),
  },
})

describeProblem(matmulSwishScaling, {
  "has Tensara's signature (A, B, scale, output, M, N, K), scale before the output": {
    signature: rows('A: input', 'B: input', 'scale: float', 'output: output', 'M: size_t', 'N: size_t', 'K: size_t'),
    prototypes: { float32: 'void solution(const float* A, const float* B, float scale, float* output, size_t M, size_t N, size_t K)' },
  },
  "has Tensara's four (M, N, K) with scale 0.5, 1.414, 2, 0.707": {
    cases: FUSED_CASES,
    also: () => expect(matmulSwishScaling.cases('float32').map((c) => c.params.scale)).toEqual([0.5, 1.414, 2, 0.707]),
  },
  "counts Tensara's 2MNK + 5MN FLOPs and moves A, B and the output once": {
    counts: {
      // M = 512, N = 1024, K = 512: 2·512·1024·512 + 5·512·1024; 4(512² + 2·512·1024) bytes.
      '512x512 x 512x1024': {
        elements: { A: 262_144, B: 524_288, output: 524_288 },
        flops: 539_492_352,
        bytes: { float32: 5_242_880 },
      },
    },
  },
  "has Tensara's tolerance rtol 5e-4, atol 2e-4": { float32: { rtol: 5e-4, atol: 2e-4 } },
})

describeProblem(matmulSigmoidSum, {
  "has Tensara's signature (A, B, output, M, N, K), the output starting as NaN": {
    signature: rows('A: input', 'B: input', 'output: output', 'M: size_t', 'N: size_t', 'K: size_t'),
    prototypes: { float32: 'void solution(const float* A, const float* B, float* output, size_t M, size_t N, size_t K)' },
    also: () => expect(matmulSigmoidSum.signature[2]).toEqual({ name: 'output', kind: 'output' }),
  },
  "has Tensara's four (M, N, K)": {
    cases: FUSED_CASES,
    params: [
      { M: 512, N: 512, K: 512 },
      { M: 1024, N: 512, K: 1024 },
      { M: 512, N: 1024, K: 512 },
      { M: 1024, N: 1024, K: 1024 },
    ],
  },
  "counts Tensara's 2MNK + 3MN + MN − 1 FLOPs and reads A and B, writing one float": {
    counts: {
      // 2·1024³ + 4·1024² − 1; 4(2·1024² + 1) bytes.
      '1024x1024 x 1024x1024': {
        elements: { A: 1_048_576, B: 1_048_576, output: 1 },
        flops: 2_151_677_951,
        bytes: { float32: 8_388_612 },
      },
    },
  },
  "has Tensara's tolerance rtol 5e-2, atol 1e-2": { float32: { rtol: 5e-2, atol: 1e-2 }, ranges: { M: [1, 1024], N: [1, 1024], K: [1, 1024] } },
})

it('exports every matrix-product problem from the catalogue', async () => {
  const problems = await import('../../problems/index.js')
  const exported = [
    problems.matmul3d,
    problems.matmul4d,
    problems.diagonalMatmul,
    problems.lowerTrigMatmul,
    problems.upperTrigMatmul,
    problems.symmetricMatmul,
    problems.matrixPower,
    problems.gemmMultiplyLeakyRelu,
    problems.matmulSwish,
    problems.matmulSwishScaling,
    problems.matmulSigmoidSum,
  ]
  const defined = [
    matmul3d,
    matmul4d,
    diagonalMatmul,
    lowerTrigMatmul,
    upperTrigMatmul,
    symmetricMatmul,
    matrixPower,
    gemmMultiplyLeakyRelu,
    matmulSwish,
    matmulSwishScaling,
    matmulSigmoidSum,
  ]
  exported.forEach((problem, i) => expect(problem).toBe(defined[i]))
})
