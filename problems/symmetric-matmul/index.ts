import { defineProblem } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'
import { productOutput, squareCases, squareElements, squareProductSignature } from '../matmul-common/index.js'

/**
 * Tensara's symmetric-matmul (tensara/problems, problems/symmetric-matmul/def.py as of 32e682c): C = A·B for n×n
 * row-major A and B, both symmetric. Tensara's are x·xᵀ/2 of a uniform x; here each is a uniform draw in [-1, 1] with
 * its upper triangle mirrored from the lower: symmetric as Tensara's, with smaller values.
 */
export const symmetricMatmul = defineProblem({
  name: 'symmetric-matmul',
  description:
    'Product of two symmetric n×n row-major matrices, C = A·B.',
  signature: squareProductSignature(productOutput('output_c'), 'symmetric'),
  dtypes: ['float32'],
  cases: () => squareCases([4096, 6144, 7168, 8192, 9216]),
  elements: squareElements,
  flops: ({ params: { n } }) => 2 * n! ** 3,
  tolerance: { float32: { rtol: 1e-6, atol: 5e-3 } },
  // square-matmul's: the same signature and a general product, which does not rely on the symmetry.
  reference: cudaReference('square-matmul'),
  shapes: { ranges: { n: [1, 2048] } },
})
