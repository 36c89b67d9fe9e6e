import { batchNorm } from '../../problems/batch-norm/index.js'
import { frobeniusNorm } from '../../problems/frobenius-norm/index.js'
import { l1Norm } from '../../problems/l1-norm/index.js'
import { l2Norm } from '../../problems/l2-norm/index.js'
import { logSoftmax } from '../../problems/log-softmax/index.js'
import { runningSum1d } from '../../problems/running-sum-1d/index.js'
import { exampleFile, type Example, type Planted } from './types.js'

export const examples: Example[] = [
  { problem: logSoftmax, solution: exampleFile('log-softmax', 'log_softmax.cu'), dtype: 'float32' },
  { problem: l1Norm, solution: exampleFile('l1-norm', 'l1_norm.cu'), dtype: 'float32' },
  { problem: l2Norm, solution: exampleFile('l2-norm', 'l2_norm.cu'), dtype: 'float32' },
  { problem: frobeniusNorm, solution: exampleFile('frobenius-norm', 'frobenius_norm.cu'), dtype: 'float32' },
  { problem: batchNorm, solution: exampleFile('batch-norm', 'batch_norm.cu'), dtype: 'float32' },
  { problem: runningSum1d, solution: exampleFile('running-sum-1d', 'running_sum_1d.cu'), dtype: 'float32' },
]

export const planted: Planted[] = []
