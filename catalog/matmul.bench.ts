// The matrix-product family's examples: products of stacked tensors with a matrix, all on the GEMM family's tiled
// fp32 kernel.
import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { matmul3d } from '../problems/matmul-3d/index.js'
import { matmul4d } from '../problems/matmul-4d/index.js'

describe('tensor times matrix', () => {
  kernelBench('matmul-3d, tiled', { problem: matmul3d, solution: '../problems/matmul-3d/solutions/matmul_3d.cu' })
  kernelBench('matmul-4d, tiled', { problem: matmul4d, solution: '../problems/matmul-4d/solutions/matmul_4d.cu' })
})
