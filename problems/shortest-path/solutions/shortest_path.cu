// Bellman-Ford in pull form, repeated until a pass changes nothing: a pass lowers each d[v] to min over u of
// d[u] + adj[u][v]. Threads of a block take 256 adjacent columns v and read row u of the matrix coalesced; the rows are
// split into chunks over the grid's y so the matrix streams through every SM, and the chunks meet with an atomicMin on
// the float's bits (for non-negative floats, integer order is float order). Updates land in place, so a pass may
// already use this pass's shorter lengths: every value is still the length of some path, so the fixpoint is the answer.
// Random dense graphs settle in a few passes (shortest paths of few edges); a pass costs one read of the matrix.
#include <cuda_runtime.h>
#include <math.h>

constexpr int kColumns = 256;
constexpr int kRowsPerChunk = 256;

__global__ void startDistances(float* distances, size_t n, int source) {
  size_t v = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (v < n) distances[v] = v == (size_t)source ? 0.0f : INFINITY;
}

__global__ void __launch_bounds__(kColumns) relaxPass(const float* __restrict__ adj, float* distances, size_t n, int* changed) {
  const size_t v = blockIdx.x * (size_t)kColumns + threadIdx.x;
  const size_t firstRow = blockIdx.y * (size_t)kRowsPerChunk;
  const size_t lastRow = firstRow + kRowsPerChunk < n ? firstRow + kRowsPerChunk : n;
  if (v >= n) return;
  float best = INFINITY;
  for (size_t u = firstRow; u < lastRow; ++u) {
    const float w = adj[u * n + v];
    const float du = distances[u];
    if (w > 0.0f && du + w < best) best = du + w;
  }
  if (best < distances[v]) {
    const int old = atomicMin(reinterpret_cast<int*>(&distances[v]), __float_as_int(best));
    if (__float_as_int(best) < old) *changed = 1;
  }
}

__global__ void markUnreached(float* distances, size_t n) {
  size_t v = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (v < n && distances[v] == INFINITY) distances[v] = -1.0f;
}

extern "C" void solution(const float* d_adj_matrix, int source, float* d_distances, size_t n) {
  const unsigned vertexBlocks = (unsigned)((n + kColumns - 1) / kColumns);
  startDistances<<<vertexBlocks, kColumns>>>(d_distances, n, source);
  int* changed = nullptr;
  cudaMalloc(&changed, sizeof(int));
  const dim3 grid(vertexBlocks, (unsigned)((n + kRowsPerChunk - 1) / kRowsPerChunk));
  // At most n − 1 passes change anything (a shortest path has fewer than n edges).
  for (size_t pass = 0; pass < n; ++pass) {
    int hostChanged = 0;
    cudaMemset(changed, 0, sizeof(int));
    relaxPass<<<grid, kColumns>>>(d_adj_matrix, d_distances, n, changed);
    cudaMemcpy(&hostChanged, changed, sizeof(int), cudaMemcpyDeviceToHost);
    if (!hostChanged) break;
  }
  cudaFree(changed);
  markUnreached<<<vertexBlocks, kColumns>>>(d_distances, n);
}
