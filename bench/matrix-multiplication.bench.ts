import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { matmul } from 'vitest-kernel-bench/problems'

describe('sgemm', () => {
  kernelBench('naive sgemm', { problem: matmul, solution: '../problems/matrix-multiplication/solutions/sgemm_naive.cu' })
  kernelBench('tiled sgemm', { problem: matmul, solution: '../problems/matrix-multiplication/solutions/sgemm_tiled.cu' })
})

describe('16-bit gemm', () => {
  kernelBench('wmma gemm float16', {
    problem: matmul,
    solution: '../problems/matrix-multiplication/solutions/gemm_wmma_f16.cu',
    dtype: 'float16',
  })
  kernelBench('wmma gemm bfloat16', {
    problem: matmul,
    solution: '../problems/matrix-multiplication/solutions/gemm_wmma_bf16.cu',
    dtype: 'bfloat16',
  })
})
