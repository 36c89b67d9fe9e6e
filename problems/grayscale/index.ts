import { defineImageProblem, imageCases } from '../image-common/image.js'

/**
 * Tensara's grayscale (tensara/problems, problems/grayscale/def.py as of 32e682c): Gray = 0.299·R + 0.587·G + 0.114·B
 * for every pixel of a row-major height×width×channels image with interleaved channels (R, G, B, R, G, B, …).
 * Tensara passes channels = 3 in every case, and so do the random shapes here.
 */
export const grayscale = defineImageProblem({
  name: 'grayscale',
  description:
    'RGB to grayscale of a row-major height×width image with interleaved channels (HWC, channels = 3): ' +
    'gray[i][j] = 0.299·R + 0.587·G + 0.114·B, pixels in [0, 255].',
  signature: [
    { name: 'rgb_image', kind: 'input' },
    { name: 'grayscale_output', kind: 'output' },
    { name: 'height', kind: 'scalar', ctype: 'size_t' },
    { name: 'width', kind: 'scalar', ctype: 'size_t' },
    { name: 'channels', kind: 'scalar', ctype: 'size_t' },
  ],
  cases: imageCases(
    [
      [512, 512],
      [1024, 768],
      [1920, 1080],
      [3840, 2160],
    ],
    { channels: 3 },
  ),
  elements: ({ params: { height, width, channels } }) => ({ rgb_image: height! * width! * channels!, grayscale_output: height! * width! }),
  // Tensara's count: three multiplications and two additions per pixel.
  flops: ({ params: { height, width } }) => 5 * height! * width!,
  tolerance: { rtol: 1e-5, atol: 1e-5 },
  minExtent: 1,
  maxExtent: 1024,
})
