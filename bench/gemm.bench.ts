// The GEMM family's examples beyond matrix-multiplication (see matrix-multiplication.bench.ts): the shared tiled
// fp32 GEMM and WMMA tensor-core GEMM on square-matmul and gemm-relu (epilogue fused), and the warp-per-row gemv.
import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { gemmRelu } from '../problems/gemm-relu/index.js'
import { matrixVector } from '../problems/matrix-vector/index.js'
import { squareMatmul } from '../problems/square-matmul/index.js'

const solutions = [
  [squareMatmul, { float32: 'sgemm_tiled.cu', float16: 'gemm_wmma_f16.cu', bfloat16: 'gemm_wmma_bf16.cu' }],
  [matrixVector, { float32: 'gemv_f32.cu', float16: 'gemv_f16.cu', bfloat16: 'gemv_bf16.cu' }],
  [gemmRelu, { float32: 'gemm_relu_tiled.cu', float16: 'gemm_relu_wmma_f16.cu', bfloat16: 'gemm_relu_wmma_bf16.cu' }],
] as const

for (const [problem, files] of solutions) {
  describe(problem.name, () => {
    // The problem's own dtypes: kernelBench's type accepts only those for its problem.
    for (const [dtype, file] of Object.entries(files) as Array<[(typeof problem.dtypes)[number], string]>) {
      kernelBench(`${problem.name} ${dtype} ${file}`, { problem, solution: `../problems/${problem.name}/solutions/${file}`, dtype })
    }
  })
}
