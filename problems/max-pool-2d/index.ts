import { definePoolProblem } from '../pool-common/pool.js'

/**
 * Tensara's max-pool-2d (tensara/problems, problems/max-pool-2d/def.py as of 32e682c): PyTorch's max_pool2d over a
 * row-major H×W matrix with dilation, padding as −∞, six cases from 1024² to 16384². Tensara counts its FLOPs over
 * the output extents without the dilation.
 */
export const maxPool2d = definePoolProblem({
  name: 'max-pool-2d',
  description: '2-D max pooling of a row-major H×W matrix: K×K window with dilation, stride S, padding P (never the maximum).',
  op: 'max',
  dims: 2,
  configs: [
    { extents: [4096, 4096], kernel: 2, stride: 2, padding: 0, dilation: 1 },
    { extents: [8192, 8192], kernel: 3, stride: 2, padding: 1, dilation: 1 },
    { extents: [16384, 16384], kernel: 4, stride: 4, padding: 2, dilation: 1 },
    { extents: [1024, 1024], kernel: 3, stride: 3, padding: 1, dilation: 2 },
    { extents: [2048, 2048], kernel: 5, stride: 2, padding: 2, dilation: 1 },
    { extents: [4096, 4096], kernel: 7, stride: 3, padding: 3, dilation: 1 },
  ],
  dilationLabel: 'D',
  tolerance: { rtol: 1e-4, atol: 8e-5 },
  flopsIgnoreDilation: true,
  maxRandomExtent: 1024,
})
