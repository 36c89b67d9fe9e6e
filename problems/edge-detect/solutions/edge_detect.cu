// Edge detection in two launches over the same grid of tiles, 128 columns × 16 rows each: a thread walks down one
// column of its tile keeping the pixels above, at and below in registers (each row loaded once, coalesced; the left
// and right neighbours come from L1). The first launch finds each tile's largest magnitude, and the last tile to finish
// (a fenced counter that resets itself) merges them into the image's; the second recomputes the magnitudes and writes
// them scaled by 255 / that maximum. Reading the input twice costs less than writing the magnitudes and rescaling.
#include <cuda_runtime.h>
#include <stddef.h>
#include "../../reduction-common/reduction.cuh"

using namespace reduction;

constexpr int kThreads = 128;
constexpr int kStrip = 16;

// Counts the tiles of the first launch that are done; atomicInc wraps it back to 0 at the last one.
__device__ unsigned tilesDone = 0;

// Calls f(p, magnitude) for every pixel p of the thread's column of its tile (none where the column is off the image).
template <class F>
__device__ void forEachMagnitude(const float* __restrict__ in, int h, int w, F f) {
  const int x = blockIdx.x * kThreads + threadIdx.x;
  if (x >= w) return;
  const int y0 = blockIdx.y * kStrip, y1 = min(h, y0 + kStrip);
  const bool interiorColumn = x > 0 && x < w - 1;
  float up = y0 > 0 ? in[(size_t)(y0 - 1) * w + x] : 0.0f;
  float mid = in[(size_t)y0 * w + x];
  for (int y = y0; y < y1; ++y) {
    const size_t p = (size_t)y * w + x;
    const float down = y + 1 < h ? in[p + w] : 0.0f;
    float m = 0.0f;
    if (interiorColumn && y > 0 && y < h - 1) {
      const float gx = (in[p + 1] - in[p - 1]) * 0.5f;
      const float gy = (down - up) * 0.5f;
      m = sqrtf(gx * gx + gy * gy);
    }
    f(p, m);
    up = mid;
    mid = down;
  }
}

__global__ void __launch_bounds__(kThreads) maxMagnitude(const float* __restrict__ in, int h, int w, float* partials, float* largest) {
  float m = 0.0f;
  forEachMagnitude(in, h, w, [&](size_t, float v) { m = fmaxf(m, v); });
  m = blockMerge<Max>(m);
  const unsigned tiles = gridDim.x * gridDim.y;
  __shared__ bool lastTile;
  if (threadIdx.x == 0) {
    partials[blockIdx.y * gridDim.x + blockIdx.x] = m;
    __threadfence();  // the partial is visible before the count says so
    lastTile = atomicInc(&tilesDone, tiles - 1) == tiles - 1;
  }
  __syncthreads();
  if (!lastTile) return;
  m = 0.0f;
  for (unsigned t = threadIdx.x; t < tiles; t += kThreads) m = fmaxf(m, __ldcg(partials + t));
  m = blockMerge<Max>(m);
  if (threadIdx.x == 0) *largest = m;
}

__global__ void __launch_bounds__(kThreads) writeScaled(const float* __restrict__ in, float* __restrict__ out, int h, int w, const float* largest) {
  // An image with no gradient stays 0 (255 / 0 would make it NaN).
  const float scale = *largest > 0.0f ? 255.0f / *largest : 0.0f;
  forEachMagnitude(in, h, w, [&](size_t p, float v) { out[p] = v * scale; });
}

extern "C" void solution(const float* input_image, float* output_image, size_t height, size_t width) {
  const dim3 grid(blocksFor(width, kThreads), blocksFor(height, kStrip));
  const unsigned tiles = grid.x * grid.y;
  float* partials = scratch<float>(tiles + 1);  // one per tile, then the image's maximum
  maxMagnitude<<<grid, kThreads>>>(input_image, (int)height, (int)width, partials, partials + tiles);
  writeScaled<<<grid, kThreads>>>(input_image, output_image, (int)height, (int)width, partials + tiles);
}
