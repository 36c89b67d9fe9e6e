import { defineProblem } from '../../src/spec/problem.js'
import { cudaReference, productOutput, squareCases, squareElements, squareProductSignature } from '../matmul-common/index.js'

/**
 * Tensara's symmetric-matmul (tensara/problems, problems/symmetric-matmul/def.py as of 32e682c): C = A·B for n×n
 * row-major A and B. Tensara's inputs are symmetric (x·xᵀ/2 of a uniform x); the harness draws every element
 * independently, so here they are not, and a solution must not rely on symmetry (reading a row of B for a column).
 */
export const symmetricMatmul = defineProblem({
  name: 'symmetric-matmul',
  description:
    'Product of two n×n row-major matrices, C = A·B, symmetric in Tensara; here A and B are drawn without symmetry, ' +
    'so every element is read as it is.',
  signature: squareProductSignature(productOutput('output_c')),
  dtypes: ['float32'],
  cases: () => squareCases([4096, 6144, 7168, 8192, 9216]),
  elements: squareElements,
  flops: ({ params: { n } }) => 2 * n! ** 3,
  tolerance: { float32: { rtol: 1e-6, atol: 5e-3 } },
  // square-matmul's: the same signature and a general product, which assumes no symmetry.
  reference: cudaReference('square-matmul'),
  shapes: { ranges: { n: [1, 2048] } },
})
