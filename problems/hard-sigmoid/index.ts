import { activationProblem } from '../elementwise.js'

/** Tensara's hard-sigmoid: PyTorch's hardsigmoid, output = clamp((input + 3) / 6, 0, 1). */
export const hardSigmoid = activationProblem({
  name: 'hard-sigmoid',
  description:
    'Hard sigmoid of every element of a row-major M×N matrix: C[i][j] = 0 if x ≤ −3, 1 if x ≥ 3, else (x + 3) / 6, ' +
    'with x = A[i][j]. n = M rows, m = N columns.',
  // + 3, / 6 and the two comparisons of the clamp. Tensara counts 1 per element.
  flopsPerElement: 4,
  float32: { rtol: 1e-4, atol: 6e-5 },
})
