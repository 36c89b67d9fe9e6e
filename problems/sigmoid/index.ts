import { activationProblem } from '../elementwise.js'

/** Tensara's sigmoid: output = 1 / (1 + e^−input) over a row-major rows × cols matrix. */
export const sigmoid = activationProblem({
  name: 'sigmoid',
  description: 'Sigmoid of every element of a row-major M×N matrix: C[i][j] = 1 / (1 + e^(−A[i][j])). n = M rows, m = N columns.',
  // e^−x, 1 + and the division. Tensara counts 1 per element.
  flopsPerElement: 3,
  float32: { rtol: 1e-4, atol: 6e-5 },
})
