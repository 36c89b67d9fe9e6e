// The normalisation family of the cat-norm problems: log-softmax, l1-norm, l2-norm, frobenius-norm, batch-norm, and
// running-sum-1d (a windowed sum, here for its prefix-sum solution). Signatures, Tensara's cases, element, FLOP and
// byte counts worked out by hand, tolerances, input ranges and references.
import { expect, it } from 'vitest'
import { batchNorm } from '../../problems/batch-norm/index.js'
import { frobeniusNorm } from '../../problems/frobenius-norm/index.js'
import { l1Norm } from '../../problems/l1-norm/index.js'
import { l2Norm } from '../../problems/l2-norm/index.js'
import { logSoftmax } from '../../problems/log-softmax/index.js'
import { runningSum1d } from '../../problems/running-sum-1d/index.js'
import { describeFloat32Family, describeProblem, signatureOf } from '../helpers/problem-tests.js'

describeFloat32Family([
  { problem: logSoftmax, reference: 'log-softmax.cu' },
  { problem: l1Norm, reference: 'l1-norm.cu' },
  { problem: l2Norm, reference: 'l2-norm.cu' },
  { problem: frobeniusNorm, reference: 'frobenius-norm.cu' },
  { problem: batchNorm, reference: 'batch-norm.cu' },
  { problem: runningSum1d, reference: 'running-sum-1d.cu' },
])

describeProblem(logSoftmax, {
  "has Tensara's signature (input, output, M, N)": {
    signature: [
      ['input', 'input', undefined],
      ['output', 'output', undefined],
      ['M', 'scalar', 'size_t'],
      ['N', 'scalar', 'size_t'],
    ],
    prototypes: { float32: 'void solution(const float* input, float* output, size_t M, size_t N)' },
  },
  "has Tensara's five shapes, M rows of N": {
    cases: ['4096x4096', '6144x4096', '4096x7168', '4096x8192', '8192x8192'],
    also: () => expect(logSoftmax.cases('float32')[2]!.params).toEqual({ M: 4096, N: 7168 }),
  },
  "counts Tensara's 3 FLOPs per element and moves the matrix in and out once": {
    counts: {
      // 4096 · 8192 = 33 554 432 elements; 3 FLOPs and 8 bytes each.
      '4096x8192': { elements: { input: 33_554_432, output: 33_554_432 }, flops: 100_663_296, bytes: { float32: 268_435_456 } },
    },
  },
  "has Tensara's tolerance rtol 1e-4, atol 2e-5 and inputs in [-1, 1]": {
    float32: { rtol: 1e-4, atol: 2e-5 },
    ranges: { M: [1, 2048], N: [1, 2048] },
    also: () => expect(logSoftmax.inputRange).toEqual([-1, 1]),
  },
})

// l1-norm and l2-norm share Tensara's signature and five shapes; their FLOPs, tolerances and epsilons differ.
const ROW_NORM_CASES = ['B=128, D=4096', 'B=256, D=4096', 'B=128, D=8192', 'B=256, D=8192', 'B=128, D=16384']

describeProblem(l1Norm, {
  "has Tensara's signature (X, Y, B, D)": {
    signature: [
      ['X', 'input', undefined],
      ['Y', 'output', undefined],
      ['B', 'scalar', 'size_t'],
      ['D', 'scalar', 'size_t'],
    ],
    prototypes: { float32: 'void solution(const float* X, float* Y, size_t B, size_t D)' },
  },
  "has Tensara's five shapes, named as Tensara names them": {
    cases: ROW_NORM_CASES,
    also: () => expect(l1Norm.cases('float32')[3]!.params).toEqual({ B: 256, D: 8192 }),
  },
  "counts Tensara's B(3D + 1) FLOPs and moves the matrix in and out once": {
    counts: {
      // 128 · (3 · 16384 + 1) = 6 291 584; 128 · 16384 = 2 097 152 elements of 4 bytes, read and written.
      'B=128, D=16384': { elements: { X: 2_097_152, Y: 2_097_152 }, flops: 6_291_584, bytes: { float32: 16_777_216 } },
    },
  },
  "has Tensara's tolerance rtol 7e-4, atol 5e-5, inputs in [-1, 1] and says where its epsilon goes": {
    float32: { rtol: 7e-4, atol: 5e-5 },
    ranges: { B: [1, 512], D: [1, 4096] },
    also: () => {
      expect(l1Norm.inputRange).toEqual([-1, 1])
      expect(l1Norm.description).toContain('(Σ|x| + 1e-10)')
    },
  },
})

describeProblem(l2Norm, {
  "has l1-norm's signature (X, Y, B, D) and five shapes": {
    prototypes: { float32: 'void solution(const float* X, float* Y, size_t B, size_t D)' },
    cases: ROW_NORM_CASES,
    also: () => expect(signatureOf(l2Norm)).toEqual(signatureOf(l1Norm)),
  },
  "counts Tensara's B(3D + 2) FLOPs and moves the matrix in and out once": {
    counts: {
      // 256 · (3 · 4096 + 2) = 3 146 240; 256 · 4096 = 1 048 576 elements of 4 bytes, read and written.
      'B=256, D=4096': { elements: { X: 1_048_576, Y: 1_048_576 }, flops: 3_146_240, bytes: { float32: 8_388_608 } },
    },
  },
  "has Tensara's tolerance rtol 1e-4, atol 1e-6 and adds the epsilon to the norm, as Tensara does": {
    float32: { rtol: 1e-4, atol: 1e-6 },
    ranges: { B: [1, 512], D: [1, 4096] },
    also: () => expect(l2Norm.description).toContain('(√(Σx²) + 1e-10)'),
  },
})

describeProblem(frobeniusNorm, {
  "has Tensara's signature (X, Y, size): the element count only": {
    signature: [
      ['X', 'input', undefined],
      ['Y', 'output', undefined],
      ['size', 'scalar', 'size_t'],
    ],
    prototypes: { float32: 'void solution(const float* X, float* Y, size_t size)' },
  },
  "has Tensara's four shapes, named after the Python tuple, each passed as its element count": {
    cases: ['shape=(4, 1024, 1024)', 'shape=(32, 128, 128)', 'shape=(8, 32, 256, 256)', 'shape=(4, 16, 32, 128, 128)'],
    params: [{ size: 4_194_304 }, { size: 524_288 }, { size: 16_777_216 }, { size: 33_554_432 }],
  },
  "counts Tensara's 3·size + 4 FLOPs and moves the tensor in and out once": {
    counts: {
      // 8 · 32 · 256 · 256 = 16 777 216 elements; 3 · 16 777 216 + 4 FLOPs; 8 bytes each.
      'shape=(8, 32, 256, 256)': { elements: { X: 16_777_216, Y: 16_777_216 }, flops: 50_331_652, bytes: { float32: 134_217_728 } },
    },
  },
  "has Tensara's tolerance rtol 3e-3, atol 1e-6 and inputs in [-1, 1]": {
    float32: { rtol: 3e-3, atol: 1e-6 },
    shapes: { ranges: { size: [1, 4_000_000] } },
    also: () => expect(frobeniusNorm.inputRange).toEqual([-1, 1]),
  },
})

describeProblem(batchNorm, {
  "has Tensara's signature (X, Y, B, F, D1, D2)": {
    signature: [
      ['X', 'input', undefined],
      ['Y', 'output', undefined],
      ['B', 'scalar', 'size_t'],
      ['F', 'scalar', 'size_t'],
      ['D1', 'scalar', 'size_t'],
      ['D2', 'scalar', 'size_t'],
    ],
    prototypes: { float32: 'void solution(const float* X, float* Y, size_t B, size_t F, size_t D1, size_t D2)' },
  },
  "has Tensara's four shapes, named as Tensara names them": {
    cases: ['B=16, F=64, D1=256, D2=256', 'B=32, F=128, D1=128, D2=128', 'B=8, F=256, D1=64, D2=64', 'B=4, F=32, D1=512, D2=512'],
    also: () => expect(batchNorm.cases('float32')[3]!.params).toEqual({ B: 4, F: 32, D1: 512, D2: 512 }),
  },
  "counts Tensara's (6B + 2)·F·D1·D2 FLOPs and moves the tensor in and out once": {
    counts: {
      // 8 · 256 · 64 · 64 = 8 388 608 elements; (6 · 8 + 2) · 256 · 64 · 64 = 50 · 1 048 576 FLOPs; 8 bytes each.
      'B=8, F=256, D1=64, D2=64': { elements: { X: 8_388_608, Y: 8_388_608 }, flops: 52_428_800, bytes: { float32: 67_108_864 } },
    },
  },
  "has Tensara's tolerance rtol 1e-4, atol 1e-4, inputs in [-1, 1], and says the statistics are per channel as in BatchNorm2d": {
    float32: { rtol: 1e-4, atol: 1e-4 },
    ranges: { B: [1, 16], F: [1, 64], D1: [1, 64], D2: [1, 64] },
    also: () => {
      expect(batchNorm.inputRange).toEqual([-1, 1])
      expect(batchNorm.description).toContain('each channel f over its B·D1·D2 elements')
    },
  },
})

describeProblem(runningSum1d, {
  "has Tensara's signature (input, W, output, N), the window before the output": {
    signature: [
      ['input', 'input', undefined],
      ['W', 'scalar', 'size_t'],
      ['output', 'output', undefined],
      ['N', 'scalar', 'size_t'],
    ],
    prototypes: { float32: 'void solution(const float* input, size_t W, float* output, size_t N)' },
  },
  "has Tensara's four signal lengths, W = 8191 in each, named as Tensara names them": {
    cases: ['N=65536, W=8191', 'N=32768, W=8191', 'N=131072, W=8191', 'N=524288, W=8191'],
    also: () => expect(runningSum1d.cases('float32')[1]!.params).toEqual({ N: 32768, W: 8191 }),
  },
  "counts Tensara's 2N FLOPs and moves the signal in and out once": {
    counts: {
      // 2 · 524 288 FLOPs; 2 · 4 · 524 288 bytes.
      'N=524288, W=8191': { elements: { input: 524_288, output: 524_288 }, flops: 1_048_576, bytes: { float32: 4_194_304 } },
    },
  },
  "has Tensara's tolerance rtol 5e-4, atol 3e-2, inputs in [-1, 1], and draws only odd windows shorter than the signal": {
    float32: { rtol: 5e-4, atol: 3e-2 },
    ranges: { N: [2, 20000], W: [1, 2047] },
    also: () => {
      expect(runningSum1d.inputRange).toEqual([-1, 1])
      const valid = runningSum1d.shapes!.valid!
      expect([valid({ N: 100, W: 7 }), valid({ N: 100, W: 8 }), valid({ N: 7, W: 7 }), valid({ N: 8, W: 7 })]).toEqual([true, false, false, true])
    },
  },
})

it('exports every problem of the family from the catalogue', async () => {
  const problems = await import('../../problems/index.js')
  const exported = [problems.logSoftmax, problems.l1Norm, problems.l2Norm, problems.frobeniusNorm, problems.batchNorm, problems.runningSum1d]
  const defined = [logSoftmax, l1Norm, l2Norm, frobeniusNorm, batchNorm, runningSum1d]
  exported.forEach((problem, i) => expect(problem).toBe(defined[i]))
})
