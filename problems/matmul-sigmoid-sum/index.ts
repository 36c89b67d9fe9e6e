import { defineProblem } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'
import { fusedCases, fusedShapes, inputs, sizes } from '../matmul-common/index.js'

/**
 * Tensara's matmul-sigmoid-sum (tensara/problems, problems/matmul-sigmoid-sum/def.py as of 32e682c): the sum of
 * σ(A·B) over all M×N elements, one float out. FLOPs are Tensara's 2MNK + 3MN + (MN − 1): the product, σ as 3 per
 * element, and the additions of the sum. The output starts as NaN, so a solution that adds into it zeroes it first.
 */
export const matmulSigmoidSum = defineProblem({
  name: 'matmul-sigmoid-sum',
  description: 'Sum of the sigmoid of a matrix product: Σ σ(A·B) over all M×N elements, with A M×K and B K×N row-major; one float out.',
  signature: [...inputs('A', 'B'), { name: 'output', kind: 'output' }, ...sizes('M', 'N', 'K')],
  dtypes: ['float32'],
  cases: () => fusedCases(),
  elements: ({ params: { M, N, K } }) => ({ A: M! * K!, B: K! * N!, output: 1 }),
  flops: ({ params: { M, N, K } }) => 2 * M! * N! * K! + 3 * M! * N! + (M! * N! - 1),
  tolerance: { float32: { rtol: 5e-2, atol: 1e-2 } },
  reference: cudaReference('matmul-sigmoid-sum'),
  shapes: fusedShapes,
})
