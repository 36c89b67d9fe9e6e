import { elementwiseProblem } from '../elementwise.js'

const SIZES = [8192, 9216]
const SCALARS = [0.1, 0.2, -0.3, 0.4, -0.5]

/** Tensara's matrix-scalar: output = scalar · input over an n × n matrix, five scalars on two sizes. */
export const matrixScalar = elementwiseProblem({
  name: 'matrix-scalar',
  description: 'Product of a row-major n×n matrix and a scalar: C[i][j] = A[i][j] · s. The scalar is a float for every dtype.',
  signature: [
    { name: 'input_matrix', kind: 'input' },
    { name: 'scalar', kind: 'scalar', ctype: 'float' },
    { name: 'output_matrix', kind: 'output' },
    { name: 'n', kind: 'scalar', ctype: 'size_t' },
  ],
  dims: ['n', 'n'],
  cases: SIZES.flatMap((n) => SCALARS.map((scalar) => ({ name: `${n}x${n} scalar=${scalar}`, params: { n, scalar } }))),
  // One multiplication per element.
  flopsPerElement: 1,
  float32: { rtol: 1e-4, atol: 7e-6 },
})
