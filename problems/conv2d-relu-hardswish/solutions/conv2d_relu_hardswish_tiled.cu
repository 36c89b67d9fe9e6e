// 2-D convolution (same-size output, zero padding of Kh/2 rows and Kw/2 columns) fused with ReLU and HardSwish,
// row-major: each block of 32×8 threads computes a 32×32 output tile, four rows per thread (ty, ty + 8, ty + 16,
// ty + 24), so every tap read from shared memory feeds four FMAs. The kernel and the tile's (32 + Kh − 1)×(32 + Kw − 1)
// input patch (zeros outside the image) are staged in shared memory once; the activation is applied in registers
// before the only store. Any H and W; Kh and Kw up to 47 (the patch and the kernel fit in 48 KiB).
#include <cuda_runtime.h>

constexpr int kTile = 32, kThreadRows = 8, kRowsPerThread = kTile / kThreadRows;

__device__ __forceinline__ float reluHardswish(float x) {
  const float r = fmaxf(x, 0.0f);
  return r * fminf(r + 3.0f, 6.0f) * (1.0f / 6.0f);  // r ≥ 0, so ReLU6(r + 3) is min(r + 3, 6)
}

__global__ void __launch_bounds__(kTile * kThreadRows) conv2dReluHardswish(const float* __restrict__ image,
                                                                           const float* __restrict__ kernel,
                                                                           float* __restrict__ output, int h, int w,
                                                                           int kh, int kw) {
  extern __shared__ float shared[];
  const int pitch = kTile + kw - 1, patchRows = kTile + kh - 1;
  float* taps = shared;             // kh × kw, as the kernel
  float* patch = shared + kh * kw;  // patchRows × pitch
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * kTile + tx;
  const int rowBase = blockIdx.y * kTile, colBase = blockIdx.x * kTile;

  for (int q = tid; q < kh * kw; q += kTile * kThreadRows) taps[q] = kernel[q];
  const int top = rowBase - kh / 2, left = colBase - kw / 2;
  // One warp per patch row at a time: consecutive threads read consecutive columns.
  for (int y = ty; y < patchRows; y += kThreadRows) {
    const int gr = top + y;
    for (int x = tx; x < pitch; x += kTile) {
      const int gc = left + x;
      patch[y * pitch + x] = (gr >= 0 && gr < h && gc >= 0 && gc < w) ? image[(size_t)gr * w + gc] : 0.0f;
    }
  }
  __syncthreads();

  float acc[kRowsPerThread] = {};
  for (int u = 0; u < kh; ++u) {
    const float* in = patch + (ty + u) * pitch + tx;
    for (int v = 0; v < kw; ++v) {
      const float tap = taps[u * kw + v];
#pragma unroll
      for (int i = 0; i < kRowsPerThread; ++i) acc[i] += in[i * kThreadRows * pitch + v] * tap;
    }
  }

  const int col = colBase + tx;
  if (col >= w) return;
#pragma unroll
  for (int i = 0; i < kRowsPerThread; ++i) {
    const int row = rowBase + ty + i * kThreadRows;
    if (row < h) output[(size_t)row * w + col] = reluHardswish(acc[i]);
  }
}

extern "C" void solution(const float* image, const float* kernel, float* output, size_t H, size_t W, size_t Kh, size_t Kw) {
  const int kh = (int)Kh, kw = (int)Kw;
  const size_t shared = sizeof(float) * ((size_t)kh * kw + (size_t)(kTile + kh - 1) * (kTile + kw - 1));
  dim3 grid((unsigned)((W + kTile - 1) / kTile), (unsigned)((H + kTile - 1) / kTile));
  conv2dReluHardswish<<<grid, dim3(kTile, kThreadRows), shared>>>(image, kernel, output, (int)H, (int)W, kh, kw);
}
