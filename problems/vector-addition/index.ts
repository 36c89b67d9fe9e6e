import { defineProblem } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'

const POWERS = [20, 22, 23, 25, 26, 29, 30]

/** Tensara's vector-addition: c = a + b over n float32 elements, n = 2^20 … 2^30. */
export const vectorAddition = defineProblem({
  name: 'vector-addition',
  description: 'Element-wise sum of two vectors: c[i] = a[i] + b[i].',
  signature: [
    { name: 'd_input1', kind: 'input' },
    { name: 'd_input2', kind: 'input' },
    { name: 'd_output', kind: 'output' },
    { name: 'n', kind: 'scalar', ctype: 'size_t' },
  ],
  dtypes: ['float32'],
  cases: () => POWERS.map((p) => ({ name: `n = 2^${p}`, params: { n: 2 ** p } })),
  elements: ({ params }) => ({ d_input1: params.n!, d_input2: params.n!, d_output: params.n! }),
  flops: ({ params }) => params.n!,
  tolerance: { float32: { rtol: 2e-4, atol: 1e-4 } },
  reference: cudaReference('vector-addition'),
})
