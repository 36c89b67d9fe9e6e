import { arraySort } from '../../problems/array-sort/index.js'
import { histogram } from '../../problems/histogram/index.js'
import { exampleFile, type Example, type Planted } from './types.js'

// Each problem's example is problems/<name>/solutions/<name with underscores>.cu, e.g. array_sort.cu.
export const examples: Example[] = [histogram, arraySort].map((problem) => ({
  problem,
  solution: exampleFile(problem.name, `${problem.name.replaceAll('-', '_')}.cu`),
  dtype: problem.dtypes[0]!,
}))

export const planted: Planted[] = []
