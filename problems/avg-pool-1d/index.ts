import { definePoolProblem } from '../pool-common/pool.js'

/**
 * Tensara's avg-pool-1d (tensara/problems, problems/avg-pool-1d/def.py as of 32e682c): PyTorch's avg_pool1d over
 * an H-long vector, zero padding counted in the average (the divisor is always K), six (H, K, S, P) cases with
 * H = 2^21 … 2^26.
 */
export const avgPool1d = definePoolProblem({
  name: 'avg-pool-1d',
  description: '1-D average pooling of an H-long vector: window K, stride S, zero padding P counted in the divisor K.',
  op: 'avg',
  dims: 1,
  configs: [
    { extents: [2 ** 21], kernel: 7, stride: 4, padding: 3 },
    { extents: [2 ** 22], kernel: 2, stride: 1, padding: 0 },
    { extents: [2 ** 23], kernel: 3, stride: 2, padding: 1 },
    { extents: [2 ** 24], kernel: 4, stride: 2, padding: 1 },
    { extents: [2 ** 25], kernel: 3, stride: 1, padding: 1 },
    { extents: [2 ** 26], kernel: 5, stride: 3, padding: 2 },
  ],
  tolerance: { rtol: 2e-4, atol: 4e-5 },
  maxRandomExtent: 1 << 20,
})
