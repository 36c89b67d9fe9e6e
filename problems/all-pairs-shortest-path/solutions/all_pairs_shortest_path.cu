// Blocked Floyd-Warshall over 32×32 tiles. Round r, for the tile row and column r of the intermediate vertices:
// the diagonal tile runs Floyd-Warshall on itself, then the other tiles of row r and column r update through it, then
// every remaining tile takes min(d, column tile · row tile) in the (min, +) semiring, read from shared memory. Each
// round reads and writes the matrix once (instead of once per vertex). Cells past n are +∞ in shared memory and
// never stored.
#include <cuda_runtime.h>
#include <math.h>

constexpr int kTile = 32;

__device__ inline float loadCell(const float* d, size_t n, size_t i, size_t j) { return i < n && j < n ? d[i * n + j] : INFINITY; }

__global__ void startDistances(const float* adj, float* d, size_t n) {
  size_t e = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (e >= n * n) return;
  const float w = adj[e];
  d[e] = e / n == e % n ? 0.0f : w == 0.0f ? INFINITY : w;
}

__global__ void __launch_bounds__(kTile * kTile) diagonalTile(float* d, size_t n, size_t r) {
  __shared__ float tile[kTile][kTile];
  const int ty = threadIdx.y, tx = threadIdx.x;
  const size_t i = r * kTile + ty, j = r * kTile + tx;
  tile[ty][tx] = loadCell(d, n, i, j);
  __syncthreads();
  for (int k = 0; k < kTile; ++k) {
    tile[ty][tx] = fminf(tile[ty][tx], tile[ty][k] + tile[k][tx]);
    __syncthreads();
  }
  if (i < n && j < n) d[i * n + j] = tile[ty][tx];
}

// blockIdx.y 0: tile (r, c) of row r; 1: tile (c, r) of column r.
__global__ void __launch_bounds__(kTile * kTile) crossTiles(float* d, size_t n, size_t r) {
  const size_t c = blockIdx.x;
  if (c == r) return;
  __shared__ float pivot[kTile][kTile], own[kTile][kTile];
  const int ty = threadIdx.y, tx = threadIdx.x;
  const bool inRow = blockIdx.y == 0;
  const size_t i = (inRow ? r : c) * kTile + ty, j = (inRow ? c : r) * kTile + tx;
  pivot[ty][tx] = loadCell(d, n, r * kTile + ty, r * kTile + tx);
  own[ty][tx] = loadCell(d, n, i, j);
  __syncthreads();
  for (int k = 0; k < kTile; ++k) {
    const float through = inRow ? pivot[ty][k] + own[k][tx] : own[ty][k] + pivot[k][tx];
    own[ty][tx] = fminf(own[ty][tx], through);
    __syncthreads();
  }
  if (i < n && j < n) d[i * n + j] = own[ty][tx];
}

__global__ void __launch_bounds__(kTile * kTile) otherTiles(float* d, size_t n, size_t r) {
  const size_t a = blockIdx.y, b = blockIdx.x;
  if (a == r || b == r) return;
  __shared__ float column[kTile][kTile], row[kTile][kTile];
  const int ty = threadIdx.y, tx = threadIdx.x;
  const size_t i = a * kTile + ty, j = b * kTile + tx;
  column[ty][tx] = loadCell(d, n, i, r * kTile + tx);
  row[ty][tx] = loadCell(d, n, r * kTile + ty, j);
  __syncthreads();
  if (i >= n || j >= n) return;
  float best = d[i * n + j];
#pragma unroll 8
  for (int k = 0; k < kTile; ++k) best = fminf(best, column[ty][k] + row[k][tx]);
  d[i * n + j] = best;
}

__global__ void markNoPath(float* d, size_t n) {
  size_t e = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (e < n * n && d[e] == INFINITY) d[e] = -1.0f;
}

extern "C" void solution(const float* adj_matrix, float* output, size_t n) {
  if (n == 0) return;
  const unsigned cellBlocks = (unsigned)((n * n + 255) / 256);
  const size_t tiles = (n + kTile - 1) / kTile;
  const dim3 threads(kTile, kTile);
  startDistances<<<cellBlocks, 256>>>(adj_matrix, output, n);
  for (size_t r = 0; r < tiles; ++r) {
    diagonalTile<<<1, threads>>>(output, n, r);
    crossTiles<<<dim3((unsigned)tiles, 2), threads>>>(output, n, r);
    otherTiles<<<dim3((unsigned)tiles, (unsigned)tiles), threads>>>(output, n, r);
  }
  markNoPath<<<cellBlocks, 256>>>(output, n);
}
