import { definePoolProblem } from '../pool-common/pool.js'

/**
 * Tensara's max-pool-1d (tensara/problems, problems/max-pool-1d/def.py as of 32e682c): PyTorch's max_pool1d over
 * an H-long vector with dilation, padding as −∞, six (H, K, S, P, dilation) cases with H = 2^21 … 2^26.
 */
export const maxPool1d = definePoolProblem({
  name: 'max-pool-1d',
  description: '1-D max pooling of an H-long vector: window K with dilation, stride S, padding P (never the maximum).',
  op: 'max',
  dims: 1,
  configs: [
    { extents: [2 ** 21], kernel: 7, stride: 4, padding: 3, dilation: 1 },
    { extents: [2 ** 22], kernel: 2, stride: 1, padding: 0, dilation: 1 },
    { extents: [2 ** 23], kernel: 3, stride: 2, padding: 1, dilation: 1 },
    { extents: [2 ** 24], kernel: 4, stride: 2, padding: 1, dilation: 2 },
    { extents: [2 ** 25], kernel: 3, stride: 1, padding: 1, dilation: 1 },
    { extents: [2 ** 26], kernel: 5, stride: 3, padding: 2, dilation: 1 },
  ],
  dilationLabel: 'd',
  tolerance: { rtol: 1e-4, atol: 7e-5 },
  maxRandomExtent: 1 << 20,
})
