import { defineProblem } from '../../src/spec/problem.js'
import { FEATURE_MAP_SHAPES, FEATURE_MAP_SIZES, featureMapCount, type FeatureMapShape } from '../reduction-common/feature-maps.js'
import { cudaReference } from '../cuda-reference.js'

const SHAPES: readonly FeatureMapShape[] = [
  [16, 64, 32, 32],
  [32, 128, 64, 64],
  [8, 256, 128, 128],
  [4, 512, 32, 32],
]

/**
 * Tensara's layer-norm: each of B samples of X (B×F×D1×D2) is normalised over its F·D1·D2 elements with its own
 * mean and biased variance, eps = 1e-5, then scaled by gamma and shifted by beta (both F×D1×D2).
 */
export const layerNorm = defineProblem({
  name: 'layer-norm',
  description:
    'Layer normalisation over the last three dimensions of a B×F×D1×D2 tensor: ' +
    'y = (x - mean) / sqrt(var + 1e-5) * gamma + beta, with elementwise gamma and beta of F×D1×D2.',
  signature: [{ name: 'X', kind: 'input' }, { name: 'gamma', kind: 'input' }, { name: 'beta', kind: 'input' }, { name: 'Y', kind: 'output' }, ...FEATURE_MAP_SIZES],
  dtypes: ['float32'],
  cases: () => SHAPES.map(([B, F, D1, D2]) => ({ name: `${B}x${F}x${D1}x${D2}`, params: { B, F, D1, D2 } })),
  elements: (c) => {
    const n = featureMapCount(c) / c.params.B!
    return { X: featureMapCount(c), gamma: n, beta: n, Y: featureMapCount(c) }
  },
  // Tensara's count, kept so that GFLOPS compare with Tensara's: 14 per element (mean 1, variance 3, normalise 8
  // with the square root costed at 5, scale and shift 2). A fused kernel does about 8 per element (sum, deviation,
  // square, sum, subtract, multiply by the reciprocal standard deviation, scale, shift): the problem is memory-bound
  // either way, so the roofline is set by bytes.
  flops: (c) => 14 * featureMapCount(c),
  tolerance: { float32: { rtol: 2e-4, atol: 1e-4 } },
  reference: cudaReference('layer-norm'),
  shapes: FEATURE_MAP_SHAPES,
})
