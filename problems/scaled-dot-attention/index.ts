import { defineProblem } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'

/** Tensara's (batch B, heads H, sequence length S, head size E) shapes, in Tensara's order. */
const SHAPES: ReadonlyArray<readonly [b: number, h: number, s: number, e: number]> = [
  [8, 16, 512, 64],
  [16, 32, 256, 64],
  [4, 32, 1024, 32],
  [32, 8, 512, 128],
  [8, 16, 512, 256],
  [8, 16, 2048, 64],
]

/** Tensara's scaled-dot-attention: output = softmax(Q Kᵀ / √E) V for each of the B·H heads, no mask, no dropout. */
export const scaledDotAttention = defineProblem({
  name: 'scaled-dot-attention',
  description:
    'Scaled dot-product attention per head: output = softmax(Q·Kᵀ / √E)·V, with Q, K, V and output row-major ' +
    'B×H×S×E (batch, heads, sequence length, head size); no mask, no dropout.',
  signature: [
    { name: 'Q', kind: 'input' },
    { name: 'K', kind: 'input' },
    { name: 'V', kind: 'input' },
    { name: 'output', kind: 'output' },
    { name: 'B', kind: 'scalar', ctype: 'size_t' },
    { name: 'H', kind: 'scalar', ctype: 'size_t' },
    { name: 'S', kind: 'scalar', ctype: 'size_t' },
    { name: 'E', kind: 'scalar', ctype: 'size_t' },
  ],
  dtypes: ['float32'],
  cases: () =>
    SHAPES.map(([b, h, s, e]) => ({
      name: `Batch=${b}, Heads=${h}, Seq_len=${s}, Embed_dim=${e}`,
      params: { B: b, H: h, S: s, E: e },
    })),
  elements: ({ params: { B, H, S, E } }) => {
    const size = B! * H! * S! * E!
    return { Q: size, K: size, V: size, output: size }
  },
  // Tensara's count: 2·S·S·E for Q·Kᵀ and again for the product with V, plus 5 per score for scaling and
  // softmax (max, subtract, exp, sum, divide), per head.
  flops: ({ params: { B, H, S, E } }) => 4 * B! * H! * S! * S! * E! + 5 * B! * H! * S! * S!,
  // Bytes: the default, Q, K, V read once and output written once. (Tensara's get_mem counts a naive
  // implementation's S×S intermediates too; a fused kernel never moves them.)
  tolerance: { float32: { rtol: 2e-2, atol: 5e-3 } },
  // Tensara draws N(0, 0.01²) inputs: the outputs (~4e-4) are then far below its atol 5e-3, so an all-zero output
  // would pass. Inputs from [-2, 2] give scores of standard deviation 4/3, a softmax far from uniform and outputs
  // of typical size 0.06 to 0.16, where the tolerance means something.
  inputRange: [-2, 2],
  reference: cudaReference('scaled-dot-attention'),
  shapes: {
    // Head sizes up to Tensara's largest (256); the reference takes one block per query row, so S stays modest.
    ranges: { B: [1, 3], H: [1, 4], S: [1, 600], E: [1, 256] },
  },
})
