import { activationProblem } from '../elementwise.js'

/** Tensara's selu: PyTorch's selu, scale · (input > 0 ? input : alpha · (e^input − 1)) with SELU's fixed constants. */
export const selu = activationProblem({
  name: 'selu',
  description:
    'SELU of every element of a row-major M×N matrix: C[i][j] = λ·x if x > 0, else λ·α·(e^x − 1), with x = A[i][j], ' +
    "λ = 1.0507009873554805 and α = 1.6732632423543772 (PyTorch's constants). n = M rows, m = N columns.",
  // The comparison, e^x, − 1, α · and λ ·. Tensara counts 3 per element.
  flopsPerElement: 5,
  float32: { rtol: 1e-4, atol: 8e-5 },
})
