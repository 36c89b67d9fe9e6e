import { defineProblem } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'

const ROWS = [4096, 8192, 10240, 16384]
const DIM = 4096

/**
 * Tensara's cosine-similarity (tensara/problems, problems/cosine-similarity/def.py as of 32e682c): 1 − the cosine
 * similarity of each pair of rows, x·y / (max(‖x‖, 1e-8)·max(‖y‖, 1e-8)), over N rows of D = 4096.
 */
export const cosineSimilarity = defineProblem({
  name: 'cosine-similarity',
  description: 'One minus the cosine similarity of each row pair of two row-major N×D matrices: output[i] = 1 − x·y / (‖x‖·‖y‖).',
  signature: [
    { name: 'predictions', kind: 'input' },
    { name: 'targets', kind: 'input' },
    { name: 'output', kind: 'output' },
    { name: 'n', kind: 'scalar', ctype: 'size_t' },
    { name: 'd', kind: 'scalar', ctype: 'size_t' },
  ],
  dtypes: ['float32'],
  cases: () => ROWS.map((n) => ({ name: `N=${n}, D=${DIM}`, params: { n, d: DIM } })),
  elements: ({ params: { n, d } }) => ({ predictions: n! * d!, targets: n! * d!, output: n! }),
  // Tensara's count per row pair, kept so that GFLOPS compare with Tensara's: 5D + 3 (the dot product, the two
  // sums of squares and their roots, the division and 1 −).
  flops: ({ params: { n, d } }) => n! * (5 * d! + 3),
  tolerance: { float32: { rtol: 1e-4, atol: 1e-4 } },
  reference: cudaReference('cosine-similarity'),
  shapes: { ranges: { n: [1, 2048], d: [1, 2048] } },
})
