import { defineProblem } from '../../src/spec/problem.js'
import { CONV_1D_SHAPES } from '../conv-1d/index.js'
import { cudaReference } from '../cuda-reference.js'

/**
 * Tensara's running-sum-1d (tensara/problems, problems/running-sum-1d/def.py as of 32e682c): the sum of each centred
 * window of W (odd, < N) elements, zero padding at both ends, N outputs; its reference is PyTorch's conv1d of a ones
 * filter with padding W/2. W comes before the output pointer.
 */
export const runningSum1d = defineProblem({
  name: 'running-sum-1d',
  description:
    '1-D running sum of an N-long signal over a centred window of W elements (W odd, W < N), zero padding at both ends: ' +
    'output[i] = Σ input[i − (W−1)/2 … i + (W−1)/2], N outputs.',
  signature: [{ name: 'input', kind: 'input' }, { name: 'W', kind: 'scalar', ctype: 'size_t' }, { name: 'output', kind: 'output' }, { name: 'N', kind: 'scalar', ctype: 'size_t' }],
  dtypes: ['float32'],
  // Named as Tensara names them.
  cases: () => CONV_1D_SHAPES.map(([N, W]) => ({ name: `N=${N}, W=${W}`, params: { N, W } })),
  elements: ({ params: { N } }) => ({ input: N!, output: N! }),
  // Tensara's count, that of a prefix-sum solution: N additions for the prefix sums and one subtraction per output.
  flops: ({ params: { N } }) => 2 * N!,
  tolerance: { float32: { rtol: 5e-4, atol: 3e-2 } },
  reference: cudaReference('running-sum-1d'),
  shapes: {
    ranges: { N: [2, 20000], W: [1, 2047] },
    // Tensara: W is odd and smaller than N.
    valid: ({ N, W }) => W! % 2 === 1 && W! < N!,
  },
})
