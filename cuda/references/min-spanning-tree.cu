// Reference for min-spanning-tree: Prim's algorithm from vertex 0 in one block (graph.cuh); the weight is the sum of
// the edges that join the tree, in double. A graph it cannot span gets +∞, as Tensara's reference returns (its
// statement says −1; every graph here is connected).
#include "graph.cuh"

__global__ void __launch_bounds__(kGraphThreads) prim(const float* adj, float* minWeight, size_t n, double* key, unsigned char* settled) {
  const Settled tree = settleAll<false>(adj, n, 0, key, settled);
  if (threadIdx.x == 0) *minWeight = tree.count == n ? (float)tree.total : INFINITY;
}

extern "C" void reference(const float* A, float* min_weight, size_t n) {
  SettleScratch scratch(n);
  prim<<<1, kGraphThreads>>>(A, min_weight, n, scratch.key, scratch.settled);
}
