import { defineGraphProblem, graphCases } from '../graph-common/graph.js'

/**
 * Tensara's min-spanning-tree (tensara/problems, problems/min-spanning-tree/def.py): the total weight of a minimum
 * spanning tree of an undirected graph, A symmetric, A[i][j] the weight of edge i – j (0: none), written to the one
 * float min_weight. Every minimum spanning tree has the same weight, so the weight is the whole answer. A graph that
 * cannot be spanned gets +∞ as in Tensara's reference (its statement says −1); none here can. Tensara draws a random
 * tree with weights 1 … 10 plus 2n more edges with weights 1 … 20; here (see graph.ts) the graph is complete and
 * symmetric with weights in [1, 21), the diagonal drawn too (self-loops, which no tree uses). Tensara gives no FLOP
 * count; here n², a comparison per matrix element, each edge examined once as Prim's algorithm does.
 */
export const minSpanningTree = defineGraphProblem({
  name: 'min-spanning-tree',
  description:
    'Total weight of a minimum spanning tree of an undirected graph given as a symmetric row-major n×n adjacency ' +
    'matrix (A[i][j]: weight of edge i – j, 0 for none), one float out. Weights in [1, 21).',
  signature: [
    { name: 'A', kind: 'input', structure: 'symmetric' },
    { name: 'min_weight', kind: 'output' },
    { name: 'n', kind: 'scalar', ctype: 'size_t' },
  ],
  cases: graphCases([1024, 2048, 4096, 6144]),
  elements: ({ params: { n } }) => ({ A: n! * n!, min_weight: 1 }),
  flops: ({ params: { n } }) => n! * n!,
  weights: [1, 21],
})
