import { definePoolProblem } from '../pool-common/pool.js'

/**
 * Tensara's avg-pool-3d (tensara/problems, problems/avg-pool-3d/def.py as of 32e682c): PyTorch's avg_pool3d over a
 * row-major H×W×D tensor, zero padding counted in the average (the divisor is always K³), five cubes from 192³ to
 * 1024³.
 */
export const avgPool3d = definePoolProblem({
  name: 'avg-pool-3d',
  description: '3-D average pooling of a row-major H×W×D tensor: K×K×K window, stride S, zero padding P counted in the divisor K³.',
  op: 'avg',
  dims: 3,
  configs: [
    { extents: [192, 192, 192], kernel: 5, stride: 2, padding: 2 },
    { extents: [224, 224, 224], kernel: 7, stride: 3, padding: 3 },
    { extents: [512, 512, 512], kernel: 3, stride: 3, padding: 1 },
    { extents: [784, 784, 784], kernel: 5, stride: 2, padding: 2 },
    { extents: [1024, 1024, 1024], kernel: 3, stride: 3, padding: 1 },
  ],
  tolerance: { rtol: 2e-4, atol: 1e-5 },
  maxRandomExtent: 64,
})
