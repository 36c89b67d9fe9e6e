import { defineProblem } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'
import { floatScalar, fusedCases, fusedShapes, inputs, productOutput, sizes } from '../matmul-common/index.js'

/**
 * Tensara's matmul-swish-scaling (tensara/problems, problems/matmul-swish-scaling/def.py as of 32e682c):
 * O = scale · swish(A·B), swish(x) = x·σ(x), scale a float before the output as Tensara orders them. FLOPs are
 * Tensara's 2MNK + 5MN (4 for the swish, 1 for the scaling, per element: arbitrary, σ alone is 3 operations).
 */
export const matmulSwishScaling = defineProblem({
  name: 'matmul-swish-scaling',
  description: 'Matrix product, swish and scaling: O = scale · (A·B)·σ(A·B), with A M×K, B K×N and O M×N, row-major.',
  signature: [...inputs('A', 'B'), floatScalar('scale'), productOutput('output'), ...sizes('M', 'N', 'K')],
  dtypes: ['float32'],
  cases: () => fusedCases({ name: 'scale', values: [0.5, 1.414, 2.0, 0.707] }),
  elements: ({ params: { M, N, K } }) => ({ A: M! * K!, B: K! * N!, output: M! * N! }),
  flops: ({ params: { M, N, K } }) => 2 * M! * N! * K! + 5 * M! * N!,
  tolerance: { float32: { rtol: 5e-4, atol: 2e-4 } },
  reference: cudaReference('matmul-swish-scaling'),
  shapes: fusedShapes,
})
