import { avgPool1d } from '../../problems/avg-pool-1d/index.js'
import { avgPool2d } from '../../problems/avg-pool-2d/index.js'
import { avgPool3d } from '../../problems/avg-pool-3d/index.js'
import { maxPool1d } from '../../problems/max-pool-1d/index.js'
import { maxPool2d } from '../../problems/max-pool-2d/index.js'
import { maxPool3d } from '../../problems/max-pool-3d/index.js'
import { exampleFile, type Example, type Planted } from './types.js'

// Each pooling problem's example is problems/<name>/solutions/<name with underscores>.cu, e.g. avg_pool_2d.cu.
export const examples: Example[] = [avgPool1d, avgPool2d, avgPool3d, maxPool1d, maxPool2d, maxPool3d].map((problem) => ({
  problem,
  solution: exampleFile(problem.name, `${problem.name.replaceAll('-', '_')}.cu`),
  dtype: 'float32',
}))

export const planted: Planted[] = []
