import { defineProblem } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'
import { inputs, productOutput, sizes } from '../matmul-common/index.js'

const SIZES = [512, 1024, 2048]
const POWERS = [2, 4, 8]

/**
 * Tensara's matrix-power (tensara/problems, problems/matrix-power/def.py as of 32e682c): C = Aⁿ for a size×size
 * row-major A, the power n before the output as Tensara orders them (Tensara declares it `const size_t n`, the same
 * function type). FLOPs are Tensara's (n − 1)·2·size³, those of n − 1 successive products, whatever the solution
 * does (squaring needs log₂ n products for a power of two).
 *
 * Tensara's A is 0.1·I + 0.01·N(0, 1); the harness draws every element from one uniform range, with no identity.
 * [-0.05, 0.05] keeps A⁸ well within fp32 and its elements above atol 1e-3 (spectral radius about 0.05/√3·√size:
 * 0.65, 0.92 and 1.3; the elements of A⁸ are a few 1e-3 for size 512, near 0.5 for 2048). Tensara's own A⁸ is far
 * smaller (spectral radius about 0.1 + 0.01·√size, below 0.55), mostly below its atol.
 */
export const matrixPower = defineProblem({
  name: 'matrix-power',
  description: 'Matrix power C = Aⁿ of a size×size row-major matrix (n = 2, 4, 8 in the default cases; A⁰ = I).',
  signature: [...inputs('input_matrix'), ...sizes('n'), productOutput('output_matrix'), ...sizes('size')],
  dtypes: ['float32'],
  cases: () => SIZES.flatMap((size) => POWERS.map((n) => ({ name: `${size}x${size} power=${n}`, params: { n, size } }))),
  elements: ({ params: { size } }) => ({ input_matrix: size! * size!, output_matrix: size! * size! }),
  flops: ({ params: { n, size } }) => (n! <= 1 ? 0 : (n! - 1) * 2 * size! ** 3),
  tolerance: { float32: { rtol: 1e-4, atol: 1e-3 } },
  reference: cudaReference('matrix-power'),
  inputRange: [-0.05, 0.05],
  shapes: { ranges: { n: [2, 8], size: [1, 512] } },
})
