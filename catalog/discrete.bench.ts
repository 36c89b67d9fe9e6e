// The problems with discrete answers: a histogram (its example counts in per-block shared-memory copies).
import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { histogram } from '../problems/histogram/index.js'

describe('discrete', () => {
  for (const problem of [histogram]) {
    kernelBench(problem.name, { problem, solution: `../problems/${problem.name}/solutions/${problem.name.replaceAll('-', '_')}.cu` })
  }
})
