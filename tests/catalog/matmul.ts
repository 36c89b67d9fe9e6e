import { matmul3d } from '../../problems/matmul-3d/index.js'
import { matmul4d } from '../../problems/matmul-4d/index.js'
import { exampleFile, type Example, type Planted } from './types.js'

export const examples: Example[] = [
  { problem: matmul3d, solution: exampleFile('matmul-3d', 'matmul_3d.cu'), dtype: 'float32' },
  { problem: matmul4d, solution: exampleFile('matmul-4d', 'matmul_4d.cu'), dtype: 'float32' },
]

export const planted: Planted[] = []
