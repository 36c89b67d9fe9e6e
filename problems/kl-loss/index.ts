import { pairwiseLossProblem } from '../loss-common/pairwise.js'

/**
 * Tensara's kl-loss (tensara/problems, problems/kl-loss/def.py as of 32e682c): t · (ln t − ln p) per element, both
 * clamped below at 1e-10, and 0 where the target is not positive. Tensara draws both inputs as softmax(rand(n)), so
 * they are positive and tiny (about 1/n); the harness draws them from [0, 1], the rand before the softmax, so
 * outputs are of order 1 and atol 1e-5 is a real check. Tensara's sixth case (sparse targets) needs inputs the
 * harness does not draw and is left out.
 */
export const klLoss = pairwiseLossProblem({
  name: 'kl-loss',
  description: 'Elementwise Kullback-Leibler divergence: output[i] = t·(ln t − ln p), p and t clamped at 1e-10, 0 where t ≤ 0.',
  // Tensara's count: two clamps, two logarithms, the difference, the product and the select.
  flopsPerElement: 7,
  tolerance: { rtol: 1e-5, atol: 1e-5 },
  inputRange: [0, 1],
})
