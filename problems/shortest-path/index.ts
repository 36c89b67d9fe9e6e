import { defineGraphProblem, graphCases } from '../graph-common/graph.js'

/**
 * Tensara's shortest-path (tensara/problems, problems/shortest-path/def.py): the length of the shortest path from
 * `source` to every vertex of a directed graph, adj[i][j] the weight of edge i → j (0: none, as Tensara's reference
 * takes only adj > 0 as an edge), −1 where no path reaches. Tensara draws half the possible edges with weights 1 … 10
 * plus a chain i → i + 1, cuts some vertices off in its smallest case and draws the source at random; here (see
 * graph.ts) the graph is complete with weights in [1, 11) and the source is fixed at n / 2, so every vertex is reached.
 * Tensara gives no FLOP count; here 2n², an addition and a comparison per matrix element, each edge relaxed once as
 * Dijkstra's algorithm does.
 */
export const shortestPath = defineGraphProblem({
  name: 'shortest-path',
  description:
    'Single-source shortest path lengths in a directed graph given as a row-major n×n adjacency matrix ' +
    '(d_adj_matrix[i][j]: weight of edge i → j, 0 for none); −1 for a vertex no path reaches. Weights in [1, 11).',
  signature: [
    { name: 'd_adj_matrix', kind: 'input' },
    { name: 'source', kind: 'scalar', ctype: 'int' },
    { name: 'd_distances', kind: 'output' },
    { name: 'n', kind: 'scalar', ctype: 'size_t' },
  ],
  cases: graphCases([512, 2048, 4096, 6144, 8192], (n) => ({ source: n / 2 })),
  elements: ({ params: { n } }) => ({ d_adj_matrix: n! * n!, d_distances: n! }),
  flops: ({ params: { n } }) => 2 * n! * n!,
  weights: [1, 11],
  ranges: { source: [0, 1023] },
  valid: ({ n, source }) => source! < n!,
})
