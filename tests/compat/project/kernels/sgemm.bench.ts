import { kernelBench } from 'vitest-kernel-bench'
import { matmul } from 'vitest-kernel-bench/problems'

kernelBench('my sgemm', { problem: matmul, solution: './sgemm.cu' })
