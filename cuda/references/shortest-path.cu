// Reference for shortest-path: Dijkstra's algorithm in one block (graph.cuh), then each vertex's path length as a
// float, −1 where none reaches it (Tensara's reference's marker).
#include "graph.cuh"

__global__ void __launch_bounds__(kGraphThreads) dijkstra(const float* adj, int source, float* distances, size_t n, double* key, unsigned char* settled) {
  settleAll<true>(adj, n, source, key, settled);
  __syncthreads();
  for (size_t v = threadIdx.x; v < n; v += kGraphThreads) distances[v] = key[v] == INFINITY ? -1.0f : (float)key[v];
}

extern "C" void reference(const float* d_adj_matrix, int source, float* d_distances, size_t n) {
  SettleScratch scratch(n);
  dijkstra<<<1, kGraphThreads>>>(d_adj_matrix, source, d_distances, n, scratch.key, scratch.settled);
}
