// The finite-field examples: over F_(2^31 - 1) in uint32, an element-wise product with 16-byte loads and Mersenne
// folding and a polynomial product tiled through shared memory; over F_(2^61 - 1) in uint64, a point negation with
// 16-byte loads and stores. Each problem's example is problems/<name>/solutions/<name with underscores>.cu, e.g.
// poly_multiply_ff.cu, benched in the problem's one dtype.
import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { eccPointNegation } from '../problems/ecc-point-negation/index.js'
import { polyMultiplyFf } from '../problems/poly-multiply-ff/index.js'
import { vectorMultiplyFf } from '../problems/vector-multiply-ff/index.js'

describe('finite field', () => {
  for (const problem of [vectorMultiplyFf, polyMultiplyFf, eccPointNegation]) {
    kernelBench(problem.name, { problem, solution: `../problems/${problem.name}/solutions/${problem.name.replaceAll('-', '_')}.cu` })
  }
})
