import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { matmul } from 'vitest-kernel-bench/problems'

describe('sgemm', () => {
  kernelBench('naive sgemm', { problem: matmul, solution: '../problems/matrix-multiplication/solutions/sgemm_naive.cu' })
  kernelBench('tiled sgemm', { problem: matmul, solution: '../problems/matrix-multiplication/solutions/sgemm_tiled.cu' })
})
