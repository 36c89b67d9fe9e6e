import { allPairsShortestPath } from '../../problems/all-pairs-shortest-path/index.js'
import { arraySort } from '../../problems/array-sort/index.js'
import { histogram } from '../../problems/histogram/index.js'
import { minSpanningTree } from '../../problems/min-spanning-tree/index.js'
import { shortestPath } from '../../problems/shortest-path/index.js'
import { exampleFile, type Example, type Planted } from './types.js'

// Each problem's example is problems/<name>/solutions/<name with underscores>.cu, e.g. array_sort.cu.
export const examples: Example[] = [histogram, arraySort, shortestPath, allPairsShortestPath, minSpanningTree].map((problem) => ({
  problem,
  solution: exampleFile(problem.name, `${problem.name.replaceAll('-', '_')}.cu`),
  dtype: problem.dtypes[0]!,
}))

export const planted: Planted[] = []
