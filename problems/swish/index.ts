import { activationProblem } from '../elementwise.js'

/** Tensara's swish (SiLU): output = input · sigmoid(input) over a row-major rows × cols matrix. */
export const swish = activationProblem({
  name: 'swish',
  description:
    'Swish (SiLU) of every element of a row-major M×N matrix: C[i][j] = x · σ(x) = x / (1 + e^(−x)) with x = A[i][j]. ' +
    'n = M rows, m = N columns.',
  // The sigmoid's 3 (e^−x, 1 +, division) and the product with x. Tensara counts 1 per element.
  flopsPerElement: 4,
  float32: { rtol: 1e-4, atol: 4e-5 },
})
