import { defineProblem } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'
import { inputs, productName, productOutput, sizes } from '../matmul-common/index.js'

/** Tensara's four (N, M, K, L): A N×M×K times B K×L. */
const DIMS: ReadonlyArray<readonly [number, number, number, number]> = [
  [32, 4096, 4096, 4096],
  [16, 8192, 8192, 4096],
  [64, 4096, 4096, 8192],
  [8, 8192, 8192, 8192],
]

/**
 * Tensara's matmul-3d (tensara/problems, problems/matmul-3d/def.py as of 32e682c): torch.matmul of an N×M×K tensor
 * and a K×L matrix, C[i][j][l] = Σ_k A[i][j][k]·B[k][l], all row-major: one (N·M)×K by K×L product.
 */
export const matmul3d = defineProblem({
  name: 'matmul-3d',
  description: '3-D tensor times matrix: C[i][j][l] = Σ_k A[i][j][k]·B[k][l], with A N×M×K, B K×L and C N×M×L, row-major.',
  signature: [...inputs('A', 'B'), productOutput('C'), ...sizes('n', 'm', 'k', 'l')],
  dtypes: ['float32'],
  cases: () => DIMS.map(([n, m, k, l]) => ({ name: productName([n, m], k, l), params: { n, m, k, l } })),
  elements: ({ params: { n, m, k, l } }) => ({ A: n! * m! * k!, B: k! * l!, C: n! * m! * l! }),
  flops: ({ params: { n, m, k, l } }) => 2 * n! * m! * k! * l!,
  tolerance: { float32: { rtol: 2e-4, atol: 3e-3 } },
  reference: cudaReference('matmul-3d'),
  shapes: { ranges: { n: [1, 8], m: [1, 512], k: [1, 512], l: [1, 512] } },
})
