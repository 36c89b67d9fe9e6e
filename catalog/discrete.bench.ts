// The problems with discrete answers: a histogram (its example counts in per-block
// shared-memory copies) and a sort (bitonic, its short steps in shared-memory tiles).
import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { arraySort } from '../problems/array-sort/index.js'
import { histogram } from '../problems/histogram/index.js'

describe('discrete', () => {
  for (const problem of [histogram, arraySort]) {
    kernelBench(problem.name, { problem, solution: `../problems/${problem.name}/solutions/${problem.name.replaceAll('-', '_')}.cu` })
  }
})
