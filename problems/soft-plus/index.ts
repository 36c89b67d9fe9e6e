import { activationProblem } from '../elementwise.js'

/** Tensara's soft-plus: output = ln(1 + e^input) over a row-major rows × cols matrix (PyTorch's softplus, beta 1). */
export const softPlus = activationProblem({
  name: 'soft-plus',
  description:
    'Softplus of every element of a row-major M×N matrix: C[i][j] = ln(1 + e^(A[i][j])), or A[i][j] itself above 20 ' +
    "(PyTorch's threshold, which Tensara's reference uses; inputs in [-1, 1] never reach it). n = M rows, m = N columns.",
  // e^x, 1 + and ln, as Tensara counts them.
  flopsPerElement: 3,
  float32: { rtol: 1e-4, atol: 9e-5 },
})
