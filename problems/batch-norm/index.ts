import { defineProblem } from '../../src/spec/problem.js'
import { FEATURE_MAP_SHAPES, FEATURE_MAP_SIZES, featureMapCount, type FeatureMapShape } from '../reduction-common/feature-maps.js'
import { cudaReference } from '../cuda-reference.js'

/** Tensara's four (B, F, D1, D2) shapes. */
const SHAPES: readonly FeatureMapShape[] = [
  [16, 64, 256, 256],
  [32, 128, 128, 128],
  [8, 256, 64, 64],
  [4, 32, 512, 512],
]

/**
 * Tensara's batch-norm (tensara/problems, problems/batch-norm/def.py as of 32e682c). Its reference, and so its check,
 * is PyTorch's BatchNorm2d(F, affine=False, track_running_stats=False, eps=1e-5): each channel f is normalised
 * with the mean and biased variance over its B·D1·D2 elements (batch and both spatial dimensions), not over B alone
 * for each position as Tensara's statement and FLOP count describe.
 */
export const batchNorm = defineProblem({
  name: 'batch-norm',
  description:
    'Batch normalisation of a B×F×D1×D2 tensor as BatchNorm2d without affine parameters: y = (x − mean) / √(var + 1e-5), ' +
    'mean and biased variance of each channel f over its B·D1·D2 elements.',
  signature: [{ name: 'X', kind: 'input' }, { name: 'Y', kind: 'output' }, ...FEATURE_MAP_SIZES],
  dtypes: ['float32'],
  // Named as Tensara names them.
  cases: () => SHAPES.map(([B, F, D1, D2]) => ({ name: `B=${B}, F=${F}, D1=${D1}, D2=${D2}`, params: { B, F, D1, D2 } })),
  elements: (c) => ({ X: featureMapCount(c), Y: featureMapCount(c) }),
  // Tensara's count, kept so that GFLOPS compare with Tensara's: 6B + 2 for each of the F·D1·D2 positions, as if the
  // statistics were over B alone (mean B, variance 3B, normalise 2B, 2 for the epsilon and the square root). The
  // problem is memory-bound either way.
  flops: (c) => (6 * c.params.B! + 2) * (featureMapCount(c) / c.params.B!),
  tolerance: { float32: { rtol: 1e-4, atol: 1e-4 } },
  reference: cudaReference('batch-norm'),
  shapes: FEATURE_MAP_SHAPES,
})
