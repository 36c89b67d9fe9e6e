import { defineProblem } from '../../src/spec/problem.js'
import { CONV_2D_SHAPE_SPACE, conv2dBuffers, conv2dCases, conv2dFlops, type Conv2dShape } from '../conv-2d/index.js'
import { cudaReference } from '../cuda-reference.js'

/** Tensara's (H, W, Kh, Kw) shapes, in Tensara's order. */
const SHAPES: readonly Conv2dShape[] = [
  [512, 512, 3, 3],
  [1024, 1024, 5, 5],
  [2048, 2048, 7, 7],
  [512, 512, 9, 9],
  [1024, 1024, 11, 11],
  [2048, 2048, 13, 13],
]

/**
 * Tensara's conv2d-relu-hardswish: conv-2d's same-size, zero-padded cross-correlation of an H×W image with an odd
 * Kh×Kw kernel, then ReLU, then HardSwish: r = max(0, x), output = r · ReLU6(r + 3) / 6. HardSwish after ReLU
 * never sees a negative input, so the output is r · min(r + 3, 6) / 6.
 */
export const conv2dReluHardswish = defineProblem({
  name: 'conv2d-relu-hardswish',
  description:
    '2-D convolution of a row-major H×W image with an odd Kh×Kw kernel (centred, zero padding, H×W output), then ' +
    'ReLU and HardSwish: r = max(0, x), output = r · min(max(r + 3, 0), 6) / 6.',
  ...conv2dBuffers('image', 'kernel', 'output'),
  dtypes: ['float32'],
  cases: () => conv2dCases(SHAPES),
  // Tensara's count: conv-2d's 2·Kh·Kw per pixel, none for ReLU and 5 for HardSwish.
  flops: (c) => conv2dFlops(c) + 5 * c.params.H! * c.params.W!,
  // Tensara's own, tighter than conv-2d's: its filters have at most 13² taps. Its inputs are uniform in [-1, 1] too.
  tolerance: { float32: { rtol: 9e-5, atol: 2e-4 } },
  reference: cudaReference('conv2d-relu-hardswish'),
  // Filters up to 15² (Tensara's reach 13²): the tight tolerance is meant for short sums.
  shapes: { ...CONV_2D_SHAPE_SPACE, ranges: { H: [2, 300], W: [2, 300], Kh: [1, 15], Kw: [1, 15] } },
})
