import { pairwiseLossProblem } from '../loss-common/pairwise.js'

/**
 * Tensara's hinge-loss (tensara/problems, problems/hinge-loss/def.py as of 32e682c): clamp(1 − predictions ·
 * targets, min=0) per element. Tensara draws targets from {−1, 1}; the harness draws both inputs from [−1, 1], which
 * the formula (and a solution that computes it) does not mind.
 */
export const hingeLoss = pairwiseLossProblem({
  name: 'hinge-loss',
  description: 'Elementwise hinge loss: output[i] = max(0, 1 − predictions[i]·targets[i]).',
  // The product, 1 − and the max.
  flopsPerElement: 3,
  tolerance: { rtol: 1e-4, atol: 1e-4 },
})
