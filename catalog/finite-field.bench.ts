// The finite-field examples (uint32 over F_(2^31 - 1)): an element-wise product with 16-byte loads and Mersenne
// folding, and a polynomial product tiled through shared memory. Each problem's example is
// problems/<name>/solutions/<name with underscores>.cu, e.g. poly_multiply_ff.cu.
import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { polyMultiplyFf } from '../problems/poly-multiply-ff/index.js'
import { vectorMultiplyFf } from '../problems/vector-multiply-ff/index.js'

describe('finite field', () => {
  for (const problem of [vectorMultiplyFf, polyMultiplyFf]) {
    kernelBench(problem.name, { problem, solution: `../problems/${problem.name}/solutions/${problem.name.replaceAll('-', '_')}.cu`, dtype: 'uint32' })
  }
})
