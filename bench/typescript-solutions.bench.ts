// TypeScript solutions (the analogue of Tensara's Python ones): an NVRTC-compiled relu and cuBLAS's sgemm as the
// practical ceiling for the hand-written GEMMs in matrix-multiplication.bench.ts.
import { kernelBench } from 'vitest-kernel-bench'
import { matmul, relu } from 'vitest-kernel-bench/problems'

kernelBench('relu, NVRTC kernel', { problem: relu, solution: '../problems/relu/solutions/relu_nvrtc.ts' })
kernelBench('cuBLAS sgemm', { problem: matmul, solution: '../problems/matrix-multiplication/solutions/cublas_sgemm.ts' })
