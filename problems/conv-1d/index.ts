import { defineProblem } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'

/** Tensara's (signal length N, filter size K) pairs, in Tensara's order; running-sum-1d's (N, W) are the same. */
export const CONV_1D_SHAPES: ReadonlyArray<readonly [n: number, k: number]> = [
  [65536, 8191],
  [32768, 8191],
  [131072, 8191],
  [524288, 8191],
]

/**
 * Tensara's conv-1d: C[i] = Σ_j A[i + j - (K-1)/2] · B[j] over an N-long signal and an odd K-tap filter, zero
 * padding outside the signal, so C has N elements (PyTorch's conv1d with padding K/2, a cross-correlation).
 */
export const conv1d = defineProblem({
  name: 'conv-1d',
  description:
    '1-D convolution of an N-long signal A with an odd K-tap filter B (K < N), centred, zero padding at both ends: ' +
    'C[i] = Σ_j A[i + j − (K−1)/2] · B[j], C has N elements.',
  signature: [
    { name: 'A', kind: 'input' },
    { name: 'B', kind: 'input' },
    { name: 'C', kind: 'output' },
    { name: 'N', kind: 'scalar', ctype: 'size_t' },
    { name: 'K', kind: 'scalar', ctype: 'size_t' },
  ],
  dtypes: ['float32'],
  cases: () => CONV_1D_SHAPES.map(([n, k]) => ({ name: `N=${n}, K=${k}`, params: { N: n, K: k } })),
  elements: ({ params: { N, K } }) => ({ A: N!, B: K!, C: N! }),
  // Tensara's count: K multiplications and K - 1 additions per output.
  flops: ({ params: { N, K } }) => N! * (2 * K! - 1),
  // Tensara's (fp32 rounding over 8191 products is ~1e-4 at most, far inside atol 5e-3).
  tolerance: { float32: { rtol: 2e-4, atol: 5e-3 } },
  reference: cudaReference('conv-1d'),
  shapes: {
    ranges: { N: [2, 20000], K: [1, 2047] },
    // Tensara: K is odd and smaller than N.
    valid: ({ N, K }) => K! % 2 === 1 && K! < N!,
  },
})
