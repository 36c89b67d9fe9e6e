import { defineProblem } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'

/** Tensara's five (batch, embedding_dim) shapes. */
const SHAPES: ReadonlyArray<readonly [number, number]> = [
  [128, 4096],
  [256, 8192],
  [256, 16384],
  [512, 8192],
  [1024, 1024],
]

/**
 * Tensara's triplet-margin (tensara/problems, problems/triplet-margin/def.py as of 32e682c): PyTorch's
 * TripletMarginLoss, mean over the batch of max(0, d(a, p) − d(a, n) + margin) with d(x, y) = ‖x − y + 1e-6‖₂
 * (pairwise_distance's eps), one float out. Tensara passes margin 1.0 in every case.
 */
export const tripletMargin = defineProblem({
  name: 'triplet-margin',
  description: 'Triplet margin loss of B row triplets of E floats: mean of max(0, ‖a − p‖ − ‖a − n‖ + margin), one float out.',
  signature: [
    { name: 'anchor', kind: 'input' },
    { name: 'positive', kind: 'input' },
    { name: 'negative', kind: 'input' },
    { name: 'loss', kind: 'output' },
    { name: 'B', kind: 'scalar', ctype: 'size_t' },
    { name: 'E', kind: 'scalar', ctype: 'size_t' },
    { name: 'margin', kind: 'scalar', ctype: 'float' },
  ],
  dtypes: ['float32'],
  cases: () => SHAPES.map(([B, E]) => ({ name: `batch=${B}, embedding_dim=${E}`, params: { B, E, margin: 1 } })),
  elements: ({ params: { B, E } }) => ({ anchor: B! * E!, positive: B! * E!, negative: B! * E!, loss: 1 }),
  // Tensara's count: per distance E subtractions, E squares, E − 1 additions and 5 for the root; per row 3 for
  // the loss; B − 1 additions for the mean.
  flops: ({ params: { B, E } }) => 2 * B! * (3 * E! + 4) + 4 * B! - 1,
  tolerance: { float32: { rtol: 6e-4, atol: 6e-4 } },
  reference: cudaReference('triplet-margin'),
  shapes: { ranges: { B: [1, 1024], E: [1, 2048] } },
})
