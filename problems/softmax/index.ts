import { defineProblem } from '../../src/spec/problem.js'
import { OVER_DIM_SHAPES, overDimCases, overDimSignature, sliceLayout, type OverDimConfig } from '../reduction-common/over-dim.js'
import { cudaReference } from '../cuda-reference.js'

// Tensara's seven (shape, dim) pairs. Its inputs alternate between 2·N(0, 1) and uniform [-3, 3]; here all are
// uniform in [-3, 3].
const CONFIGS: readonly OverDimConfig[] = [
  { shape: [16, 128, 256], dim: 1 },
  { shape: [32, 512, 512], dim: 2 },
  { shape: [8, 1024, 1024], dim: 1 },
  { shape: [64, 128, 128, 128], dim: 2 },
  { shape: [4, 256, 256, 256], dim: 3 },
  { shape: [128, 10], dim: 1 },
  { shape: [256, 50, 50], dim: 0 },
]

/** Tensara's softmax: torch.softmax(input, dim) over a 2-D to 4-D tensor. */
export const softmax = defineProblem({
  name: 'softmax',
  description:
    'Softmax over one dimension of a row-major tensor: exp(x) / sum of exp(x) along dim.',
  signature: overDimSignature({ name: 'output', kind: 'output' }, 'size_t', 'device'),
  dtypes: ['float32'],
  cases: () => overDimCases(CONFIGS),
  elements: (c) => {
    const { outer, size, inner } = sliceLayout(c)
    return { input: outer * size * inner, output: outer * size * inner }
  },
  // Tensara's count per slice of S elements: S - 1 comparisons (max), S subtractions, S exponentials,
  // S - 1 additions (sum) and S divisions.
  flops: (c) => {
    const { outer, size, inner } = sliceLayout(c)
    return outer * inner * (5 * size - 2)
  },
  // Tensara's: an atol of 1e-3 would pass an all-zero row wherever a long row's outputs are all below it.
  tolerance: { float32: { rtol: 2e-3, atol: 1e-4 } },
  reference: cudaReference('softmax'),
  inputRange: [-3, 3],
  shapes: OVER_DIM_SHAPES,
})
