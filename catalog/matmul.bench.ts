// The matrix-product family's examples: products of stacked tensors with a matrix and of square matrices on the GEMM
// family's tiled fp32 kernel (the triangular ones skipping what lies outside the triangles), and a row scaling for
// the diagonal product; matrix powers by repeated squaring; the fused GEMMs with their epilogue in the store (or a
// block sum for matmul-sigmoid-sum).
import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { diagonalMatmul } from '../problems/diagonal-matmul/index.js'
import { gemmMultiplyLeakyRelu } from '../problems/gemm-multiply-leakyrelu/index.js'
import { lowerTrigMatmul } from '../problems/lower-trig-matmul/index.js'
import { matmul3d } from '../problems/matmul-3d/index.js'
import { matmul4d } from '../problems/matmul-4d/index.js'
import { matmulSigmoidSum } from '../problems/matmul-sigmoid-sum/index.js'
import { matmulSwishScaling } from '../problems/matmul-swish-scaling/index.js'
import { matmulSwish } from '../problems/matmul-swish/index.js'
import { matrixPower } from '../problems/matrix-power/index.js'
import { symmetricMatmul } from '../problems/symmetric-matmul/index.js'
import { upperTrigMatmul } from '../problems/upper-trig-matmul/index.js'

describe('tensor times matrix', () => {
  kernelBench('matmul-3d, tiled', { problem: matmul3d, solution: '../problems/matmul-3d/solutions/matmul_3d.cu' })
  kernelBench('matmul-4d, tiled', { problem: matmul4d, solution: '../problems/matmul-4d/solutions/matmul_4d.cu' })
})

describe('structured square products', () => {
  kernelBench('diagonal-matmul, row scaling', { problem: diagonalMatmul, solution: '../problems/diagonal-matmul/solutions/diagonal_matmul.cu' })
  kernelBench('lower-trig-matmul, tiled', { problem: lowerTrigMatmul, solution: '../problems/lower-trig-matmul/solutions/lower_trig_matmul.cu' })
  kernelBench('upper-trig-matmul, tiled', { problem: upperTrigMatmul, solution: '../problems/upper-trig-matmul/solutions/upper_trig_matmul.cu' })
  kernelBench('symmetric-matmul, tiled', { problem: symmetricMatmul, solution: '../problems/symmetric-matmul/solutions/symmetric_matmul.cu' })
  kernelBench('matrix-power, binary exponentiation', { problem: matrixPower, solution: '../problems/matrix-power/solutions/matrix_power.cu' })
})

describe('fused GEMM epilogues', () => {
  kernelBench('gemm-multiply-leakyrelu, tiled', { problem: gemmMultiplyLeakyRelu, solution: '../problems/gemm-multiply-leakyrelu/solutions/gemm_multiply_leakyrelu.cu' })
  kernelBench('matmul-swish, tiled', { problem: matmulSwish, solution: '../problems/matmul-swish/solutions/matmul_swish.cu' })
  kernelBench('matmul-swish-scaling, tiled', { problem: matmulSwishScaling, solution: '../problems/matmul-swish-scaling/solutions/matmul_swish_scaling.cu' })
  kernelBench('matmul-sigmoid-sum, block sums', { problem: matmulSigmoidSum, solution: '../problems/matmul-sigmoid-sum/solutions/matmul_sigmoid_sum.cu' })
})
