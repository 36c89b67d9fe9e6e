// Bitonic sort in its all-ascending form: a merge of blocks of size k first compares each element with its mirror in
// the block (i with i ^ (k − 1)), then half-cleans at distances k/4 … 1, and every comparator puts the smaller value at
// the lower index. Read as an array padded with +∞ up to a power of two, a comparator that reaches past n never moves
// anything, so it is skipped and no padding is stored. Steps at distances below the 1024-element tile run in shared
// memory, one block per tile (the whole sort of each tile, then the tail of each later merge); longer ones run in
// global memory, one thread per comparator.
#include <cuda_runtime.h>
#include <limits.h>
#include <stddef.h>

constexpr int kTile = 1024;
constexpr int kThreads = kTile / 2;  // one comparator per thread per step

__device__ inline void orderPair(int* v, size_t low, size_t high) {
  int x = v[low], y = v[high];
  if (y < x) {
    v[low] = y;
    v[high] = x;
  }
}

// Comparator t of a mirror step over blocks of k: the t-th element of a block's lower half against its mirror.
__device__ inline void mirrorPair(size_t t, size_t k, size_t& low, size_t& high) {
  size_t base = t / (k / 2) * k, offset = t % (k / 2);
  low = base + offset;
  high = base + k - 1 - offset;
}

// Comparator t of a half-cleaner at distance j.
__device__ inline void stridePair(size_t t, size_t j, size_t& low, size_t& high) {
  low = t / j * 2 * j + t % j;
  high = low + j;
}

__device__ void loadTile(int* tile, const int* data, size_t first, size_t n) {
  for (int e = threadIdx.x; e < kTile; e += kThreads) tile[e] = first + e < n ? data[first + e] : INT_MAX;
  __syncthreads();
}

__device__ void storeTile(const int* tile, int* data, size_t first, size_t n) {
  __syncthreads();
  for (int e = threadIdx.x; e < kTile; e += kThreads) {
    if (first + e < n) data[first + e] = tile[e];
  }
}

__device__ void halfCleanTile(int* tile, int fromDistance) {
  size_t low, high;
  for (int j = fromDistance; j > 0; j /= 2) {
    stridePair(threadIdx.x, j, low, high);
    orderPair(tile, low, high);
    __syncthreads();
  }
}

// Sorts each tile (INT_MAX past n sorts last, so the first n − first stay the tile's own values).
__global__ void __launch_bounds__(kThreads) sortTiles(int* data, size_t n) {
  __shared__ int tile[kTile];
  const size_t first = blockIdx.x * (size_t)kTile;
  loadTile(tile, data, first, n);
  for (int k = 2; k <= kTile; k *= 2) {
    size_t low, high;
    mirrorPair(threadIdx.x, k, low, high);
    orderPair(tile, low, high);
    __syncthreads();
    halfCleanTile(tile, k / 4);
  }
  storeTile(tile, data, first, n);
}

// The steps of a merge below the tile's size.
__global__ void __launch_bounds__(kThreads) finishMergeInTiles(int* data, size_t n) {
  __shared__ int tile[kTile];
  const size_t first = blockIdx.x * (size_t)kTile;
  loadTile(tile, data, first, n);
  halfCleanTile(tile, kTile / 2);
  storeTile(tile, data, first, n);
}

__global__ void mirrorStep(int* data, size_t n, size_t pairs, size_t k) {
  size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x, low, high;
  if (t >= pairs) return;
  mirrorPair(t, k, low, high);
  if (high < n) orderPair(data, low, high);
}

__global__ void strideStep(int* data, size_t n, size_t pairs, size_t j) {
  size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x, low, high;
  if (t >= pairs) return;
  stridePair(t, j, low, high);
  if (high < n) orderPair(data, low, high);
}

extern "C" void solution(const int* a, int* b, size_t n) {
  if (n == 0) return;
  cudaMemcpy(b, a, n * sizeof(int), cudaMemcpyDeviceToDevice);
  size_t padded = kTile;
  while (padded < n) padded *= 2;
  const unsigned tiles = (unsigned)((n + kTile - 1) / kTile);
  const size_t pairs = padded / 2;
  const unsigned pairBlocks = (unsigned)((pairs + 255) / 256);
  sortTiles<<<tiles, kThreads>>>(b, n);
  for (size_t k = 2 * kTile; k <= padded; k *= 2) {
    mirrorStep<<<pairBlocks, 256>>>(b, n, pairs, k);
    for (size_t j = k / 4; j >= kTile; j /= 2) strideStep<<<pairBlocks, 256>>>(b, n, pairs, j);
    finishMergeInTiles<<<tiles, kThreads>>>(b, n);
  }
}
