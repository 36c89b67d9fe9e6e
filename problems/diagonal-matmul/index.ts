import { defineProblem } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'
import { inputs, sizes } from '../matmul-common/index.js'

/** Tensara's four (N, M): diag(a) N×N times B N×M. */
const DIMS: ReadonlyArray<readonly [number, number]> = [
  [2048, 2048],
  [4096, 4096],
  [6144, 6144],
  [8192, 4096],
]

/**
 * Tensara's diagonal-matmul (tensara/problems, problems/diagonal-matmul/def.py as of 32e682c): diag(a)·B, so
 * C[i][j] = a[i]·B[i][j], with the diagonal given as a vector of N. FLOPs are Tensara's N·M, one multiply per
 * element of C (not the 2N²M of the dense product torch.diag(a) @ B).
 */
export const diagonalMatmul = defineProblem({
  name: 'diagonal-matmul',
  description: 'Diagonal matrix times matrix: C[i][j] = a[i]·B[i][j], with the diagonal a of length N and B, C N×M row-major.',
  signature: [...inputs('diagonal_a', 'input_b'), { name: 'output_c', kind: 'output' }, ...sizes('n', 'm')],
  dtypes: ['float32'],
  cases: () => DIMS.map(([n, m]) => ({ name: `${n} x ${n}x${m}`, params: { n, m } })),
  elements: ({ params: { n, m } }) => ({ diagonal_a: n!, input_b: n! * m!, output_c: n! * m! }),
  flops: ({ params: { n, m } }) => n! * m!,
  tolerance: { float32: { rtol: 1e-4, atol: 3e-5 } },
  reference: cudaReference('diagonal-matmul'),
  shapes: { ranges: { n: [1, 2048], m: [1, 2048] } },
})
