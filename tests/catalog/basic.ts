import { vectorAddition } from '../../problems/index.js'
import { exampleFile, fixtureFile, type Example, type Planted } from './types.js'

export const examples: Example[] = [
  { problem: vectorAddition, solution: exampleFile('vector-addition', 'vector_add.cu'), dtype: 'float32' },
]

export const planted: Planted[] = [
  { problem: vectorAddition, solution: fixtureFile('wrong_vector_add.cu'), dtype: 'float32', message: /first bad index 12345/ },
]
