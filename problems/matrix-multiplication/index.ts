import { defineProblem } from '../../src/spec/problem.js'
import { HALF_PRECISION_TOLERANCE } from '../gemm-common/tolerance.js'

const SHAPES: ReadonlyArray<readonly [number, number, number]> = [
  [4096, 4096, 4096],
  [8192, 4096, 8192],
  [4096, 8192, 4096],
  [8192, 8192, 8192],
]

/** Tensara's matrix-multiplication: row-major C[M×N] = A[M×K] · B[K×N]. */
export const matrixMultiplication = defineProblem({
  name: 'matrix-multiplication',
  description: 'General matrix product of row-major matrices: C = A · B, with A M×K and B K×N.',
  signature: [
    { name: 'input_a', kind: 'input' },
    { name: 'input_b', kind: 'input' },
    // Starts at zero, as for a BLAS call with β = 0: a kernel computing α·A·B + β·C may read it.
    { name: 'output_c', kind: 'output', initial: 'zero' },
    { name: 'm', kind: 'scalar', ctype: 'size_t' },
    { name: 'n', kind: 'scalar', ctype: 'size_t' },
    { name: 'k', kind: 'scalar', ctype: 'size_t' },
  ],
  dtypes: ['float32', 'float16', 'bfloat16'],
  cases: () => SHAPES.map(([m, n, k]) => ({ name: `${m}x${n}x${k}`, params: { m, n, k } })),
  elements: ({ params: { m, n, k } }) => ({ input_a: m! * k!, input_b: k! * n!, output_c: m! * n! }),
  flops: ({ params: { m, n, k } }) => 2 * m! * n! * k!,
  tolerance: { float32: { rtol: 2e-4, atol: 5e-3 }, ...HALF_PRECISION_TOLERANCE },
  // cuBLAS (no TF32; fp32 accumulation for the 16-bit types).
  reference: { kind: 'gemm' },
  shapes: { ranges: { m: [1, 2048], n: [1, 2048], k: [1, 2048] } },
})
