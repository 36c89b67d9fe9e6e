import { rowNormProblem } from '../reduction-common/row-wise.js'

/**
 * Tensara's l1-norm (tensara/problems, problems/l1-norm/def.py as of 32e682c): each row of a row-major B×D matrix
 * divided by the sum of its absolute values plus 1e-10.
 */
export const l1Norm = rowNormProblem({
  name: 'l1-norm',
  description: 'L1 normalisation of each row of a row-major B×D matrix: y = x / (Σ|x| + 1e-10) over the row.',
  // Tensara's count per row: D absolute values, D additions (it counts D − 1 as D), 1 for the epsilon, D divisions.
  flops: (B, D) => B * (3 * D + 1),
  tolerance: { rtol: 7e-4, atol: 5e-5 },
})
