import { logSoftmax } from '../../problems/log-softmax/index.js'
import { exampleFile, type Example, type Planted } from './types.js'

export const examples: Example[] = [{ problem: logSoftmax, solution: exampleFile('log-softmax', 'log_softmax.cu'), dtype: 'float32' }]

export const planted: Planted[] = []
