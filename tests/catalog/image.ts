import { boxBlur } from '../../problems/box-blur/index.js'
import { edgeDetect } from '../../problems/edge-detect/index.js'
import { grayscale } from '../../problems/grayscale/index.js'
import { exampleFile, type Example, type Planted } from './types.js'

// Each image problem's example is problems/<name>/solutions/<name with underscores>.cu, e.g. box_blur.cu.
export const examples: Example[] = [grayscale, boxBlur, edgeDetect].map((problem) => ({
  problem,
  solution: exampleFile(problem.name, `${problem.name.replaceAll('-', '_')}.cu`),
  dtype: 'float32',
}))

export const planted: Planted[] = []
