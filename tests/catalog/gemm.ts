import { matrixMultiplication } from '../../problems/index.js'
import { gemmRelu } from '../../problems/gemm-relu/index.js'
import { matrixVector } from '../../problems/matrix-vector/index.js'
import { squareMatmul } from '../../problems/square-matmul/index.js'
import { exampleFile, fixtureFile, type Example, type Planted } from './types.js'

export const examples: Example[] = [
  { problem: matrixMultiplication, solution: exampleFile('matrix-multiplication', 'sgemm_naive.cu'), dtype: 'float32' },
  { problem: matrixMultiplication, solution: exampleFile('matrix-multiplication', 'sgemm_tiled.cu'), dtype: 'float32' },
  { problem: matrixMultiplication, solution: exampleFile('matrix-multiplication', 'gemm_wmma_f16.cu'), dtype: 'float16' },
  { problem: matrixMultiplication, solution: exampleFile('matrix-multiplication', 'gemm_wmma_bf16.cu'), dtype: 'bfloat16' },
  { problem: squareMatmul, solution: exampleFile('square-matmul', 'sgemm_tiled.cu'), dtype: 'float32' },
  { problem: squareMatmul, solution: exampleFile('square-matmul', 'gemm_wmma_f16.cu'), dtype: 'float16' },
  { problem: squareMatmul, solution: exampleFile('square-matmul', 'gemm_wmma_bf16.cu'), dtype: 'bfloat16' },
  { problem: matrixVector, solution: exampleFile('matrix-vector', 'gemv_f32.cu'), dtype: 'float32' },
  { problem: matrixVector, solution: exampleFile('matrix-vector', 'gemv_f16.cu'), dtype: 'float16' },
  { problem: matrixVector, solution: exampleFile('matrix-vector', 'gemv_bf16.cu'), dtype: 'bfloat16' },
  { problem: gemmRelu, solution: exampleFile('gemm-relu', 'gemm_relu_tiled.cu'), dtype: 'float32' },
  { problem: gemmRelu, solution: exampleFile('gemm-relu', 'gemm_relu_wmma_f16.cu'), dtype: 'float16' },
  { problem: gemmRelu, solution: exampleFile('gemm-relu', 'gemm_relu_wmma_bf16.cu'), dtype: 'bfloat16' },
]

export const planted: Planted[] = [
  {
    // Drops the last 16-deep slice of K: element 0 of the first case (4096³) is already far off.
    problem: matrixMultiplication,
    solution: fixtureFile('wrong_gemm_k_tiles.cu'),
    dtype: 'float32',
    message: /output_c: \d+ of 16777216 elements out of tolerance [^\n]*; first bad index 0: expected/,
  },
]
