import { definePoolProblem } from '../pool-common/pool.js'

/**
 * Tensara's avg-pool-2d (tensara/problems, problems/avg-pool-2d/def.py as of 32e682c): PyTorch's avg_pool2d over a
 * row-major H×W matrix, zero padding counted in the average (the divisor is always K²), six cases from 2048² to
 * 16384².
 */
export const avgPool2d = definePoolProblem({
  name: 'avg-pool-2d',
  description: '2-D average pooling of a row-major H×W matrix: K×K window, stride S, zero padding P counted in the divisor K².',
  op: 'avg',
  dims: 2,
  configs: [
    { extents: [8192, 4096], kernel: 2, stride: 2, padding: 0 },
    { extents: [8192, 8192], kernel: 3, stride: 2, padding: 1 },
    { extents: [16384, 16384], kernel: 4, stride: 4, padding: 2 },
    { extents: [8192, 8192], kernel: 3, stride: 3, padding: 1 },
    { extents: [2048, 2048], kernel: 5, stride: 2, padding: 2 },
    { extents: [4096, 4096], kernel: 7, stride: 3, padding: 3 },
  ],
  tolerance: { rtol: 2e-4, atol: 2e-5 },
  maxRandomExtent: 1024,
})
