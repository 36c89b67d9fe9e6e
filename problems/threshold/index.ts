import { elementwiseProblem } from '../elementwise.js'

/** Tensara's three image sizes (height × width) and three threshold values, every size with every value. */
const SIZES: ReadonlyArray<readonly [height: number, width: number]> = [
  [1024, 768],
  [1920, 1080],
  [3840, 2160],
]
const THRESHOLDS = [64, 128, 192]

/** Tensara checks the output for equality; 0 and 255 are exact in every dtype, so every dtype is checked so. */
const EXACT = { rtol: 0, atol: 0 }

/**
 * Tensara's threshold (tensara/problems, problems/threshold/def.py as of 32e682c): binary thresholding of a grayscale
 * image, output = input > threshold_value ? 255 : 0, with the threshold before the output pointer. Tensara draws the
 * pixels uniformly from [0, 255] and checks the output exactly.
 */
export const threshold = elementwiseProblem({
  name: 'threshold',
  description:
    'Binary threshold of every pixel of a row-major height×width grayscale image: 255 if the pixel is above ' +
    'threshold_value, else 0 (a pixel equal to it gives 0). threshold_value is a float for every dtype.',
  signature: [
    { name: 'input_image', kind: 'input' },
    { name: 'threshold_value', kind: 'scalar', ctype: 'float' },
    { name: 'output_image', kind: 'output' },
    { name: 'height', kind: 'scalar', ctype: 'size_t' },
    { name: 'width', kind: 'scalar', ctype: 'size_t' },
  ],
  dims: ['height', 'width'],
  // Named as Tensara names them: the threshold is a Python float there, printed with its '.0'.
  cases: SIZES.flatMap(([height, width]) =>
    THRESHOLDS.map((t) => ({ name: `${height}x${width}, threshold=${t.toFixed(1)}`, params: { height, width, threshold_value: t } })),
  ),
  // Tensara's count: the comparison, one per pixel.
  flopsPerElement: 1,
  float32: EXACT,
  halfTolerances: { float16: EXACT, bfloat16: EXACT },
  inputRange: [0, 255],
})
