import { defineImageProblem, imageCases, type ImageSize } from '../image-common/image.js'

const SIZES: readonly ImageSize[] = [
  [1920, 1080],
  [2048, 2048],
]
const KERNELS = [15, 21, 27]

/**
 * Tensara's box-blur (tensara/problems, problems/box-blur/def.py as of 32e682c): the mean of the K×K window centred
 * on each pixel of a row-major height×width image, over the window's pixels inside the image only (Tensara's
 * reference sums with zero padding and divides by the count of pixels inside), so the output is height×width. K is
 * odd, as Tensara's reference needs (an even K would give it a larger output); its cases use 15, 21 and 27.
 */
export const boxBlur = defineImageProblem({
  name: 'box-blur',
  description:
    'Box blur of a row-major height×width grayscale image with an odd K×K window (K = kernel_size) centred on each ' +
    'pixel: the mean of the window pixels inside the image (at the borders, fewer of them). Output height×width.',
  signature: [
    { name: 'input_image', kind: 'input' },
    { name: 'kernel_size', kind: 'scalar', ctype: 'int' },
    { name: 'output_image', kind: 'output' },
    { name: 'height', kind: 'scalar', ctype: 'size_t' },
    { name: 'width', kind: 'scalar', ctype: 'size_t' },
  ],
  // Every size with every kernel, sizes outermost, as Tensara orders them.
  cases: SIZES.flatMap((size) => KERNELS.flatMap((k) => imageCases([size], { kernel_size: k }, `kernel=${k}x${k}`))),
  elements: ({ params: { height, width } }) => ({ input_image: height! * width!, output_image: height! * width! }),
  // Tensara's count: K² per pixel (K² − 1 additions and the division), border pixels included; it is the direct
  // window's, and a separable or running-sum kernel does fewer.
  flops: ({ params: { height, width, kernel_size } }) => height! * width! * kernel_size! ** 2,
  tolerance: { rtol: 1e-4, atol: 1e-4 },
  minExtent: 1,
  maxExtent: 512,
  ranges: { kernel_size: [1, 31] },
  valid: ({ kernel_size }) => kernel_size! % 2 === 1,
})
