import { defineImageProblem, imageCases } from '../image-common/image.js'

/**
 * Tensara's edge-detect (tensara/problems, problems/edge-detect/def.py as of 32e682c): central-difference gradients
 * Gx = (in[i][j+1] − in[i][j−1]) / 2 and Gy = (in[i+1][j] − in[i−1][j]) / 2, magnitude √(Gx² + Gy²) for the
 * interior pixels of a row-major height×width image, the 1-pixel border 0. The statement only says the result is
 * "normalized to [0, 255]"; its reference, which this follows, scales every magnitude by 255 / (the image's largest
 * magnitude), so the largest is exactly 255, and leaves an image whose magnitudes are all 0 as zeros. That makes the
 * output depend on the whole image: a solution finds the maximum before it writes.
 */
export const edgeDetect = defineImageProblem({
  name: 'edge-detect',
  description:
    'Gradient magnitude √(Gx² + Gy²), Gx = (in[i][j+1] − in[i][j−1]) / 2, Gy = (in[i+1][j] − in[i−1][j]) / 2, of ' +
    'the interior pixels of a row-major height×width image, scaled by 255 / (the largest magnitude); border pixels 0.',
  signature: [
    { name: 'input_image', kind: 'input' },
    { name: 'output_image', kind: 'output' },
    { name: 'height', kind: 'scalar', ctype: 'size_t' },
    { name: 'width', kind: 'scalar', ctype: 'size_t' },
  ],
  cases: imageCases([
    [1024, 768],
    [1920, 1080],
    [2048, 2048],
    [2560, 1440],
    [4096, 4096],
  ]),
  elements: ({ params: { height, width } }) => ({ input_image: height! * width!, output_image: height! * width! }),
  // Tensara's count: 10 per interior pixel (it counts two subtractions per gradient, the two halvings, the squares,
  // the sum and the root), nothing for the maximum and the scaling.
  flops: ({ params: { height, width } }) => 10 * (height! - 2) * (width! - 2),
  tolerance: { rtol: 1e-3, atol: 1e-3 },
  // Tensara's reference fails on an image of one row or column; from 3 on there is an interior pixel to count.
  minExtent: 3,
  maxExtent: 1024,
})
