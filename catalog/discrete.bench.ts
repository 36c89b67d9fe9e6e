// Histogram, sorting and graphs: a histogram (its example counts in per-block shared-memory
// copies), a sort (bitonic, its short steps in shared-memory tiles) and
// three graph problems (Bellman-Ford passes, blocked Floyd-Warshall, Prim in one block).
import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { allPairsShortestPath } from '../problems/all-pairs-shortest-path/index.js'
import { arraySort } from '../problems/array-sort/index.js'
import { histogram } from '../problems/histogram/index.js'
import { minSpanningTree } from '../problems/min-spanning-tree/index.js'
import { shortestPath } from '../problems/shortest-path/index.js'

describe('discrete', () => {
  for (const problem of [histogram, arraySort, shortestPath, allPairsShortestPath, minSpanningTree]) {
    kernelBench(problem.name, { problem, solution: `../problems/${problem.name}/solutions/${problem.name.replaceAll('-', '_')}.cu` })
  }
})
