import { diagonalMatmul } from '../../problems/diagonal-matmul/index.js'
import { gemmMultiplyLeakyRelu } from '../../problems/gemm-multiply-leakyrelu/index.js'
import { lowerTrigMatmul } from '../../problems/lower-trig-matmul/index.js'
import { matmul3d } from '../../problems/matmul-3d/index.js'
import { matmul4d } from '../../problems/matmul-4d/index.js'
import { matmulSigmoidSum } from '../../problems/matmul-sigmoid-sum/index.js'
import { matmulSwishScaling } from '../../problems/matmul-swish-scaling/index.js'
import { matmulSwish } from '../../problems/matmul-swish/index.js'
import { matrixPower } from '../../problems/matrix-power/index.js'
import { symmetricMatmul } from '../../problems/symmetric-matmul/index.js'
import { upperTrigMatmul } from '../../problems/upper-trig-matmul/index.js'
import { exampleFile, fixtureFile, type Example, type Planted } from './types.js'

export const examples: Example[] = [
  { problem: matmul3d, solution: exampleFile('matmul-3d', 'matmul_3d.cu'), dtype: 'float32' },
  { problem: matmul4d, solution: exampleFile('matmul-4d', 'matmul_4d.cu'), dtype: 'float32' },
  { problem: diagonalMatmul, solution: exampleFile('diagonal-matmul', 'diagonal_matmul.cu'), dtype: 'float32' },
  { problem: lowerTrigMatmul, solution: exampleFile('lower-trig-matmul', 'lower_trig_matmul.cu'), dtype: 'float32' },
  { problem: upperTrigMatmul, solution: exampleFile('upper-trig-matmul', 'upper_trig_matmul.cu'), dtype: 'float32' },
  { problem: symmetricMatmul, solution: exampleFile('symmetric-matmul', 'symmetric_matmul.cu'), dtype: 'float32' },
  { problem: matrixPower, solution: exampleFile('matrix-power', 'matrix_power.cu'), dtype: 'float32' },
  { problem: gemmMultiplyLeakyRelu, solution: exampleFile('gemm-multiply-leakyrelu', 'gemm_multiply_leakyrelu.cu'), dtype: 'float32' },
  { problem: matmulSwish, solution: exampleFile('matmul-swish', 'matmul_swish.cu'), dtype: 'float32' },
  { problem: matmulSwishScaling, solution: exampleFile('matmul-swish-scaling', 'matmul_swish_scaling.cu'), dtype: 'float32' },
  { problem: matmulSigmoidSum, solution: exampleFile('matmul-sigmoid-sum', 'matmul_sigmoid_sum.cu'), dtype: 'float32' },
]

export const planted: Planted[] = []

/** The whole product, relying on the triangular inputs' zeros as Tensara's users may: it must pass here too. */
export const dropIns: Example[] = [{ problem: lowerTrigMatmul, solution: fixtureFile('lower_trig_whole.cu'), dtype: 'float32' }]
