import { activationProblem } from '../elementwise.js'

/** Tensara's tanh: output = tanh(input) over a row-major rows × cols matrix. */
export const tanh = activationProblem({
  name: 'tanh',
  description: 'Hyperbolic tangent of every element of a row-major M×N matrix: C[i][j] = tanh(A[i][j]). n = M rows, m = N columns.',
  // tanh as one operation, as Tensara counts it (and as gelu counts its tanh).
  flopsPerElement: 1,
  float32: { rtol: 1e-4, atol: 6e-5 },
})
