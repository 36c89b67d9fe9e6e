import { pairwiseLossProblem } from '../loss-common/pairwise.js'

/**
 * Tensara's huber-loss (tensara/problems, problems/huber-loss/def.py as of 32e682c): PyTorch's smooth_l1_loss with
 * beta 1 and reduction 'none', one loss per element.
 */
export const huberLoss = pairwiseLossProblem({
  name: 'huber-loss',
  description: 'Elementwise Huber (smooth L1) loss, delta 1: output[i] = |d| < 1 ? 0.5·d² : |d| − 0.5, d = predictions[i] − targets[i].',
  // Tensara's count: the difference, |d|, the comparison and two more for either branch.
  flopsPerElement: 5,
  tolerance: { rtol: 2e-4, atol: 1e-4 },
})
