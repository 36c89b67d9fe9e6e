// Separable box blur, one 32×32 output tile per block of 32×8 threads: first the horizontal window sums of the tile's
// columns over its rows and the `radius` rows above and below (each warp reads K consecutive floats of one row per
// output column, coalesced, the overlap served by L1), kept in shared memory; then each output adds up K of those
// vertically and divides by the count of window pixels inside the image. 2K additions per pixel instead of K².
#include <algorithm>
#include <cuda_runtime.h>
#include <stddef.h>

constexpr int kTileW = 32;
constexpr int kTileH = 32;
constexpr int kRowsPerPass = 8;
constexpr size_t kDefaultSharedBytes = 48 * 1024;

__global__ void __launch_bounds__(kTileW * kRowsPerPass)
    boxBlurTiles(const float* __restrict__ in, float* __restrict__ out, int h, int w, int radius) {
  // (kTileH + 2·radius) rows × kTileW columns of horizontal sums; rows outside the image sum to 0.
  extern __shared__ float rowSums[];
  const int x = blockIdx.x * kTileW + threadIdx.x;
  const int y0 = blockIdx.y * kTileH;
  const int left = max(0, x - radius), right = min(w - 1, x + radius);
  for (int i = threadIdx.y; i < kTileH + 2 * radius; i += kRowsPerPass) {
    const int y = y0 - radius + i;
    float sum = 0.0f;
    if (y >= 0 && y < h && x < w) {
      const float* row = in + (size_t)y * w;
      for (int c = left; c <= right; ++c) sum += row[c];
    }
    rowSums[i * kTileW + threadIdx.x] = sum;
  }
  __syncthreads();
  if (x >= w) return;
  const float columns = (float)(right - left + 1);
  for (int i = threadIdx.y; i < kTileH && y0 + i < h; i += kRowsPerPass) {
    const int y = y0 + i;
    float sum = 0.0f;
    for (int k = 0; k <= 2 * radius; ++k) sum += rowSums[(i + k) * kTileW + threadIdx.x];
    const int rows = min(h - 1, y + radius) - max(0, y - radius) + 1;
    out[(size_t)y * w + x] = sum / (columns * (float)rows);
  }
}

extern "C" void solution(const float* input_image, int kernel_size, float* output_image, size_t height, size_t width) {
  // A window wider than the image reads no more of it: clamping keeps the halo, and the shared memory, bounded.
  const int radius = (int)std::min<size_t>(kernel_size / 2, std::max(height, width));
  const size_t shared = (size_t)(kTileH + 2 * radius) * kTileW * sizeof(float);
  if (shared > kDefaultSharedBytes) cudaFuncSetAttribute(boxBlurTiles, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared);
  dim3 grid((unsigned)((width + kTileW - 1) / kTileW), (unsigned)((height + kTileH - 1) / kTileH));
  boxBlurTiles<<<grid, dim3(kTileW, kRowsPerPass), shared>>>(input_image, output_image, (int)height, (int)width, radius);
}
