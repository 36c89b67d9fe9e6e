import { definePoolProblem } from '../pool-common/pool.js'

/**
 * Tensara's max-pool-3d (tensara/problems, problems/max-pool-3d/def.py as of 32e682c): PyTorch's max_pool3d over a
 * row-major H×W×D tensor with dilation in all three dimensions, padding as −∞, six cubes from 256³ to 1024³.
 * Tensara counts its FLOPs over the output extents without the dilation.
 */
export const maxPool3d = definePoolProblem({
  name: 'max-pool-3d',
  description: '3-D max pooling of a row-major H×W×D tensor: K×K×K window with dilation, stride S, padding P (never the maximum).',
  op: 'max',
  dims: 3,
  configs: [
    { extents: [256, 256, 256], kernel: 2, stride: 2, padding: 0, dilation: 2 },
    { extents: [512, 512, 512], kernel: 3, stride: 2, padding: 1, dilation: 1 },
    { extents: [1024, 1024, 1024], kernel: 4, stride: 4, padding: 2, dilation: 1 },
    { extents: [512, 512, 512], kernel: 3, stride: 3, padding: 1, dilation: 3 },
    { extents: [1024, 1024, 1024], kernel: 5, stride: 2, padding: 2, dilation: 2 },
    { extents: [1024, 1024, 1024], kernel: 7, stride: 3, padding: 3, dilation: 1 },
  ],
  dilationLabel: 'dilation',
  tolerance: { rtol: 9e-5, atol: 9e-5 },
  flopsIgnoreDilation: true,
  maxRandomExtent: 64,
})
