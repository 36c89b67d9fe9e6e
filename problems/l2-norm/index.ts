import { rowNormProblem } from '../reduction-common/row-wise.js'

/**
 * Tensara's l2-norm (tensara/problems, problems/l2-norm/def.py as of 32e682c): each row of a row-major B×D matrix
 * divided by its Euclidean norm plus 1e-10 (the epsilon added to the norm, not to the sum of squares).
 */
export const l2Norm = rowNormProblem({
  name: 'l2-norm',
  description: 'L2 normalisation of each row of a row-major B×D matrix: y = x / (√(Σx²) + 1e-10) over the row.',
  // Tensara's count per row: D squares, D additions (it counts D − 1 as D), 1 for the square root, 1 for the
  // epsilon, D divisions.
  flops: (B, D) => B * (3 * D + 2),
  tolerance: { rtol: 1e-4, atol: 1e-6 },
})
