import { defineProblem } from '../../src/spec/problem.js'
import { HALF_PRECISION_TOLERANCE } from '../gemm-common/tolerance.js'
import { cudaReference } from '../cuda-reference.js'

const SIZES = [4096, 6144, 7168, 8192, 9216]

/** Tensara's square-matmul: row-major C = A · B for N×N matrices. */
export const squareMatmul = defineProblem({
  name: 'square-matmul',
  description: 'Product of two square row-major matrices: C = A · B, all three N×N.',
  signature: [
    { name: 'input_a', kind: 'input' },
    { name: 'input_b', kind: 'input' },
    // Starts at zero, as for a BLAS call with β = 0: a kernel computing α·A·B + β·C may read it.
    { name: 'output_c', kind: 'output', initial: 'zero' },
    { name: 'n', kind: 'scalar', ctype: 'size_t' },
  ],
  dtypes: ['float32', 'float16', 'bfloat16'],
  cases: () => SIZES.map((n) => ({ name: `${n}x${n}`, params: { n } })),
  elements: ({ params: { n } }) => ({ input_a: n! * n!, input_b: n! * n!, output_c: n! * n! }),
  flops: ({ params: { n } }) => 2 * n! ** 3,
  tolerance: { float32: { rtol: 2e-4, atol: 5e-3 }, ...HALF_PRECISION_TOLERANCE },
  reference: cudaReference('square-matmul'),
  shapes: { ranges: { n: [1, 2048] } },
})
