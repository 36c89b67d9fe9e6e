import { defineProblem } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'

const IMAGE_SIZES = [
  [2560, 1440],
  [2048, 2048],
  [4096, 4096],
] as const
const BIN_COUNTS = [64, 128, 256] as const

/**
 * Tensara's histogram (tensara/problems, problems/histogram/def.py): the pixel count of each of num_bins bins of a
 * height×width float image, as floats. Tensara's reference bins a pixel as clamp(x, 0, num_bins − 1) truncated to an
 * integer (torch.clamp then .long()), and so does the reference here. Tensara's pixels are whole numbers drawn from
 * [0, num_bins); the catalogue draws reals from one range per problem, so here every case draws from [0, 63.999]:
 * inside the 64 bins of the smallest case (just under 64, so that no pixel rounds to 64 in float), so a solution that
 * trusts the statement's "values in [0, num_bins − 1]" and does not clamp stays in bounds, as on Tensara. The 128- and
 * 256-bin cases therefore leave their upper bins empty (which must be written as 0).
 */
export const histogram = defineProblem({
  name: 'histogram',
  description:
    'Pixel counts of a row-major height×width float image in num_bins bins, as floats: a pixel x falls in bin ' +
    '(int)clamp(x, 0, num_bins − 1); pixels in [0, 64).',
  signature: [
    { name: 'image', kind: 'input' },
    { name: 'num_bins', kind: 'scalar', ctype: 'int' },
    { name: 'histogram', kind: 'output' },
    { name: 'height', kind: 'scalar', ctype: 'size_t' },
    { name: 'width', kind: 'scalar', ctype: 'size_t' },
  ],
  dtypes: ['float32'],
  cases: () =>
    IMAGE_SIZES.flatMap(([height, width]) =>
      BIN_COUNTS.map((num_bins) => ({ name: `${height}x${width}, bins=${num_bins}`, params: { height, width, num_bins } })),
    ),
  elements: ({ params: { height, width, num_bins } }) => ({ image: height! * width!, histogram: num_bins! }),
  // Tensara's count, arbitrary: 4 per pixel (a read, the clamp's two comparisons and the increment).
  flops: ({ params: { height, width } }) => 4 * height! * width!,
  // Counts are whole numbers: Tensara compares them exactly (torch.eq).
  tolerance: { float32: { rtol: 0, atol: 0 } },
  reference: cudaReference('histogram'),
  inputRange: [0, 63.999],
  shapes: { ranges: { height: [1, 1024], width: [1, 1024], num_bins: [64, 256] } },
})
