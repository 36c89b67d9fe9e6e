import { eccPointNegation } from '../../problems/ecc-point-negation/index.js'
import { polyMultiplyFf } from '../../problems/poly-multiply-ff/index.js'
import { vectorMultiplyFf } from '../../problems/vector-multiply-ff/index.js'
import { exampleFile, fixtureFile, type Example, type Planted } from './types.js'

// Each finite-field problem's example is problems/<name>/solutions/<name with underscores>.cu, e.g. poly_multiply_ff.cu.
export const examples: Example[] = [
  { problem: vectorMultiplyFf, solution: exampleFile('vector-multiply-ff', 'vector_multiply_ff.cu'), dtype: 'uint32' },
  { problem: polyMultiplyFf, solution: exampleFile('poly-multiply-ff', 'poly_multiply_ff.cu'), dtype: 'uint32' },
  { problem: eccPointNegation, solution: exampleFile('ecc-point-negation', 'ecc_point_negation.cu'), dtype: 'uint64' },
]

export const planted: Planted[] = [
  {
    // Unreduced products are p or more: the exact uint32 compare must see them (about a quarter of the elements).
    problem: vectorMultiplyFf,
    solution: fixtureFile('wrong_vector_multiply_ff.cu'),
    dtype: 'uint32',
    message: /d_output: \d+ of 1048576 elements out of tolerance \(rtol 0, atol 0\)/,
  },
  {
    // p - y in double: off by up to 256 wherever the low bits of y matter, which only an exact uint64 fill and compare see.
    problem: eccPointNegation,
    solution: fixtureFile('wrong_ecc_point_negation.cu'),
    dtype: 'uint64',
    message: /out_xy: \d+ of 524288 elements out of tolerance \(rtol 0, atol 0\)/,
  },
]
