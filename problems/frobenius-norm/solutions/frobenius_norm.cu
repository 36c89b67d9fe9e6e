// Frobenius normalisation in two launches of the same grid and no atomics: the first has each block sum the squares of
// its grid-stride share (16-byte loads) and store its partial sum; the second has every block add up the partials
// (a few KiB, from L2) and scale its share by 1 / ‖X‖. The grid is at most kMaxBlocks, so the partials fit a fixed
// device buffer and the total is the same in every block.
#include <algorithm>
#include "../../reduction-common/reduction.cuh"

using namespace reduction;

constexpr int kThreads = 256;
constexpr unsigned kMaxBlocks = 1024;

__device__ float partialSums[kMaxBlocks];

__device__ inline size_t lane() { return blockIdx.x * (size_t)blockDim.x + threadIdx.x; }
__device__ inline size_t lanes() { return (size_t)gridDim.x * blockDim.x; }

__global__ void __launch_bounds__(kThreads) sumSquares(const float* X, size_t size) {
  float squares = 0.0f;
  forEachOwned(X, size, lane(), lanes(), [&](float v, size_t) { squares += v * v; });
  squares = blockMerge<Sum>(squares);
  if (threadIdx.x == 0) partialSums[blockIdx.x] = squares;
}

__global__ void __launch_bounds__(kThreads) scaleByNorm(const float* X, float* Y, size_t size) {
  float total = 0.0f;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) total += partialSums[b];
  float scale = 1.0f / sqrtf(blockMerge<Sum>(total));
  mapOwned(X, Y, size, lane(), lanes(), [=](float v, size_t) { return v * scale; });
}

extern "C" void solution(const float* X, float* Y, size_t size) {
  // Four float4 loads per thread at least, so that small tensors do not spread thin over many blocks.
  unsigned blocks = (unsigned)std::min<size_t>(kMaxBlocks, std::max<size_t>(1, (size + 16 * kThreads - 1) / (16 * kThreads)));
  sumSquares<<<blocks, kThreads>>>(X, size);
  scaleByNorm<<<blocks, kThreads>>>(X, Y, size);
}
