// Reference for all-pairs-shortest-path: Floyd-Warshall as Tensara's reference runs it, one launch per intermediate
// vertex k and one thread per (i, j): d[i][j] = min(d[i][j], d[i][k] + d[k][j]), starting from the weights (0 off the
// diagonal: no edge, +∞) with a zero diagonal, then −1 where no path is. In place is safe: with d[k][k] = 0 and no
// negative weight, round k leaves row k and column k unchanged. Floats, as Tensara's: a path's length rounds at each
// addition by under 1e-7 relative, far inside the tolerance.
#include <cuda_runtime.h>
#include <math.h>

__global__ void startDistances(const float* adj, float* d, size_t n) {
  size_t e = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (e >= n * n) return;
  const size_t i = e / n, j = e % n;
  d[e] = i == j ? 0.0f : adj[e] == 0.0f ? INFINITY : adj[e];
}

__global__ void throughVertex(float* d, size_t n, size_t k) {
  size_t e = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (e >= n * n) return;
  const size_t i = e / n, j = e % n;
  d[e] = fminf(d[e], d[i * n + k] + d[k * n + j]);
}

__global__ void markNoPath(float* d, size_t n) {
  size_t e = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (e < n * n && d[e] == INFINITY) d[e] = -1.0f;
}

extern "C" void reference(const float* adj_matrix, float* output, size_t n) {
  const unsigned blocks = (unsigned)((n * n + 255) / 256);
  startDistances<<<blocks, 256>>>(adj_matrix, output, n);
  for (size_t k = 0; k < n; ++k) throughVertex<<<blocks, 256>>>(output, n, k);
  markNoPath<<<blocks, 256>>>(output, n);
}
