import { polyMultiplyFf } from '../../problems/poly-multiply-ff/index.js'
import { vectorMultiplyFf } from '../../problems/vector-multiply-ff/index.js'
import { exampleFile, fixtureFile, type Example, type Planted } from './types.js'

// Each finite-field problem's example is problems/<name>/solutions/<name with underscores>.cu, e.g. poly_multiply_ff.cu.
export const examples: Example[] = [
  { problem: vectorMultiplyFf, solution: exampleFile('vector-multiply-ff', 'vector_multiply_ff.cu'), dtype: 'uint32' },
  { problem: polyMultiplyFf, solution: exampleFile('poly-multiply-ff', 'poly_multiply_ff.cu'), dtype: 'uint32' },
]

export const planted: Planted[] = [
  {
    // Unreduced products are p or more: the exact uint32 compare must see them (about a quarter of the elements).
    problem: vectorMultiplyFf,
    solution: fixtureFile('wrong_vector_multiply_ff.cu'),
    dtype: 'uint32',
    message: /d_output: \d+ of 1048576 elements out of tolerance \(rtol 0, atol 0\)/,
  },
]
