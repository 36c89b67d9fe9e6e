import { defineGraphProblem, graphCases } from '../graph-common/graph.js'

/**
 * Tensara's all-pairs-shortest-path (tensara/problems, problems/all-pairs-shortest-path/def.py): the shortest path
 * length between every ordered pair of a directed graph, adj[i][j] the weight of edge i → j (0: none), 0 on the
 * diagonal, −1 where no path is. Tensara draws 30% of the possible edges with weights 1 … 19 plus a chain i → i + 1 and
 * some edges back, and cuts vertices off in its smallest case; here (see graph.ts) the graph is complete with weights
 * in [1, 20). Tensara gives no FLOP count; here 2n³, an addition and a comparison per (k, i, j) of Floyd-Warshall.
 */
export const allPairsShortestPath = defineGraphProblem({
  name: 'all-pairs-shortest-path',
  description:
    'Shortest path lengths between all pairs of a directed graph given as a row-major n×n adjacency matrix ' +
    '(adj_matrix[i][j]: weight of edge i → j, 0 for none); output[i][j] = 0 on the diagonal, −1 where no path is. ' +
    'Weights in [1, 20).',
  signature: [
    { name: 'adj_matrix', kind: 'input' },
    { name: 'output', kind: 'output' },
    { name: 'n', kind: 'scalar', ctype: 'size_t' },
  ],
  cases: graphCases([512, 1024, 2048, 4096]),
  elements: ({ params: { n } }) => ({ adj_matrix: n! * n!, output: n! * n! }),
  flops: ({ params: { n } }) => 2 * n! ** 3,
  weights: [1, 20],
})
