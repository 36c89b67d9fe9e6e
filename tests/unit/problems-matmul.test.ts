// The matrix-product family: matmul-3d and matmul-4d. Signatures, Tensara's cases, element, FLOP and byte counts
// worked out by hand, tolerances, shape ranges and references.
import { expect, it } from 'vitest'
import { matmul3d } from '../../problems/matmul-3d/index.js'
import { matmul4d } from '../../problems/matmul-4d/index.js'
import { describeFloat32Family, describeProblem } from '../helpers/problem-tests.js'

describeFloat32Family(
  [
    { problem: matmul3d, reference: 'matmul-3d.cu' },
    { problem: matmul4d, reference: 'matmul-4d.cu' },
  ],
  (problem) => {
    it('keeps inputs in [-1, 1], as Tensara draws them', () => {
      expect(problem.inputRange).toEqual([-1, 1])
    })
  },
)

describeProblem(matmul3d, {
  "has Tensara's signature (A, B, C, n, m, k, l), C starting at zero": {
    signature: [
      ['A', 'input', undefined],
      ['B', 'input', undefined],
      ['C', 'output', undefined],
      ['n', 'scalar', 'size_t'],
      ['m', 'scalar', 'size_t'],
      ['k', 'scalar', 'size_t'],
      ['l', 'scalar', 'size_t'],
    ],
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
    signature: [
      ['A', 'input', undefined],
      ['B', 'input', undefined],
      ['C', 'output', undefined],
      ['b', 'scalar', 'size_t'],
      ['i', 'scalar', 'size_t'],
      ['j', 'scalar', 'size_t'],
      ['l', 'scalar', 'size_t'],
      ['k', 'scalar', 'size_t'],
    ],
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

it('exports every matrix-product problem from the catalogue', async () => {
  const problems = await import('../../problems/index.js')
  const exported = [problems.matmul3d, problems.matmul4d]
  const defined = [matmul3d, matmul4d]
  exported.forEach((problem, i) => expect(problem).toBe(defined[i]))
})
