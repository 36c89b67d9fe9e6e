import { defineProblem } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'
import { MERSENNE_61 } from '../finite-field-common/field.js'

/** Tensara's four batch sizes, named as Tensara names them. */
const CASES = [
  { name: 'N = 262,144', params: { n: 262_144 } },
  { name: 'N = 524,288', params: { n: 524_288 } },
  { name: 'N = 1,048,576', params: { n: 1_048_576 } },
  { name: 'N = 2,097,152', params: { n: 2_097_152 } },
]

/**
 * Tensara's ecc-point-negation: N points (x, y) over F_p, p = 2^61 - 1, negated as (x, (p - y) mod p), written as
 * pairs out_xy[2i] = xs[i], out_xy[2i + 1] = (p - ys[i]) mod p. Tensara does not check that the points are on its
 * curve y² = x³ + 7, and neither does this: xs and ys are independent uniform field elements, 0 … p - 1, as
 * torch.randint(0, p) draws them, and the modulus p is passed as the uint64_t scalar Tensara passes (the same in
 * every case). Outputs are compared exactly (Tensara's torch.equal). Tensara counts 2 operations per point (the
 * subtraction and the reduction); the bytes are the default: two 8-byte inputs read and a 16-byte pair written.
 */
export const eccPointNegation = defineProblem({
  name: 'ecc-point-negation',
  description: 'Batched elliptic-curve point negation over F_p, p = 2^61 - 1: (x, y) ↦ (x, (p - y) mod p), uint64 elements in [0, p).',
  signature: [
    { name: 'xs', kind: 'input' },
    { name: 'ys', kind: 'input' },
    { name: 'p', kind: 'scalar', ctype: 'uint64_t', value: MERSENNE_61 },
    { name: 'out_xy', kind: 'output' },
    { name: 'n', kind: 'scalar', ctype: 'size_t' },
  ],
  dtypes: ['uint64'],
  cases: () => CASES,
  elements: ({ params: { n } }) => ({ xs: n!, ys: n!, out_xy: 2 * n! }),
  flops: ({ params: { n } }) => 2 * n!,
  tolerance: { uint64: { rtol: 0, atol: 0 } },
  reference: cudaReference('ecc-point-negation'),
  // uint64 inputs are drawn as integers lo … hi - 1: the field elements 0 … p - 1.
  inputRange: [0n, MERSENNE_61],
})
