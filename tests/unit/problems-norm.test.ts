// The normalisation family of the cat-norm problems: log-softmax. Signatures, Tensara's cases, element, FLOP and
// byte counts worked out by hand, tolerances, input ranges and references.
import { expect, it } from 'vitest'
import { logSoftmax } from '../../problems/log-softmax/index.js'
import { describeFloat32Family, describeProblem } from '../helpers/problem-tests.js'

describeFloat32Family([{ problem: logSoftmax, reference: 'log-softmax.cu' }])

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

it('exports every problem of the family from the catalogue', async () => {
  const problems = await import('../../problems/index.js')
  expect(problems.logSoftmax).toBe(logSoftmax)
})
