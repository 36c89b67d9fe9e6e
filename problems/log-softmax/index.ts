import { ACTIVATION_SHAPES } from '../elementwise.js'
import { rowWiseProblem } from '../reduction-common/row-wise.js'

/**
 * Tensara's log-softmax (tensara/problems, problems/log-softmax/def.py as of 32e682c): log_softmax over each row of a
 * row-major M×N matrix, on the five shapes of its activations, inputs uniform in [-1, 1].
 */
export const logSoftmax = rowWiseProblem({
  name: 'log-softmax',
  description: 'Log-softmax of each row of a row-major M×N matrix: y = x − ln Σ exp(x) over the row.',
  names: ['input', 'output', 'M', 'N'],
  shapes: ACTIVATION_SHAPES,
  caseName: (M, N) => `${M}x${N}`,
  // Tensara's count: per element an exponential, an addition to the sum and a subtraction (it leaves out the row's
  // maximum and its one logarithm).
  flops: (M, N) => 3 * M * N,
  tolerance: { rtol: 1e-4, atol: 2e-5 },
  randomUpTo: [2048, 2048],
})
