import { defineProblem } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'
import { floatScalar, fusedCases, fusedShapes, inputs, productOutput, sizes } from '../matmul-common/index.js'

/**
 * Tensara's gemm-multiply-leakyrelu (tensara/problems, problems/gemm-multiply-leakyrelu/def.py as of 32e682c):
 * O = LeakyReLU((A·B) ⊙ C, alpha), alpha a float between the inputs and the output as Tensara orders them. FLOPs
 * are Tensara's 2MNK + 2MN (the multiply and the LeakyReLU one each per element).
 */
export const gemmMultiplyLeakyRelu = defineProblem({
  name: 'gemm-multiply-leakyrelu',
  description:
    'GEMM, element-wise multiply and LeakyReLU: O = LeakyReLU((A·B) ⊙ C, alpha), with A M×K, B K×N and C, O M×N, row-major.',
  signature: [...inputs('A', 'B', 'C'), floatScalar('alpha'), productOutput('output'), ...sizes('M', 'N', 'K')],
  dtypes: ['float32'],
  cases: () => fusedCases({ name: 'alpha', values: [0.01, 0.05, 0.1, 0.2] }),
  elements: ({ params: { M, N, K } }) => ({ A: M! * K!, B: K! * N!, C: M! * N!, output: M! * N! }),
  flops: ({ params: { M, N, K } }) => 2 * M! * N! * K! + 2 * M! * N!,
  tolerance: { float32: { rtol: 3e-4, atol: 1e-4 } },
  reference: cudaReference('gemm-multiply-leakyrelu'),
  shapes: fusedShapes,
})
