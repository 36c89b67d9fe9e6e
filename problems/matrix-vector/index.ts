import { defineProblem } from '../../src/spec/problem.js'
import { HALF_PRECISION_TOLERANCE } from '../gemm-common/tolerance.js'
import { cudaReference } from '../cuda-reference.js'

const ROWS = [4096, 6144, 7168, 8192, 9216]
const COLUMNS = 4096

/** Tensara's matrix-vector: C = A · B with A M×K row-major and B, C vectors. */
export const matrixVector = defineProblem({
  name: 'matrix-vector',
  description: 'Matrix-vector product: C[i] = Σ_k A[i][k] · B[k], with A M×K row-major, B of length K and C of length M.',
  signature: [
    { name: 'input_a', kind: 'input' },
    { name: 'input_b', kind: 'input' },
    // Starts at zero, as for a BLAS call with β = 0: a kernel computing α·A·B + β·C may read it.
    { name: 'output_c', kind: 'output', initial: 'zero' },
    { name: 'm', kind: 'scalar', ctype: 'size_t' },
    { name: 'k', kind: 'scalar', ctype: 'size_t' },
  ],
  dtypes: ['float32', 'float16', 'bfloat16'],
  cases: () => ROWS.map((m) => ({ name: `M=${m}, K=${COLUMNS}`, params: { m, k: COLUMNS } })),
  elements: ({ params: { m, k } }) => ({ input_a: m! * k!, input_b: k!, output_c: m! }),
  flops: ({ params: { m, k } }) => 2 * m! * k!,
  tolerance: { float32: { rtol: 2e-4, atol: 3e-3 }, ...HALF_PRECISION_TOLERANCE },
  reference: cudaReference('matrix-vector'),
  shapes: { ranges: { m: [1, 4096], k: [1, 4096] } },
})
