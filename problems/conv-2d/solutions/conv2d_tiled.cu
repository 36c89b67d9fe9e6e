// 2-D convolution (same-size output, zero padding of Kh/2 rows and Kw/2 columns), row-major: each block of 256
// threads computes a 16×64 output tile, four consecutive outputs of one row per thread. The filter is walked in
// 16×32 blocks of taps: each block of taps and the input patch it needs are staged in shared memory (zeros outside
// the image), and each thread slides a register window along its row with 16-byte shared loads, so one float4 of
// input and one float4 of taps feed 16 FMAs. Any H, W, Kh, Kw.
#include <cuda_runtime.h>

constexpr int kTileRows = 16, kTileCols = 64;
constexpr int kPerThread = 4;
constexpr int kThreads = kTileRows * kTileCols / kPerThread;  // 256
constexpr int kTapRows = 16, kTapCols = 32;                     // filter taps staged per step
constexpr int kPatchRows = kTileRows + kTapRows - 1;
constexpr int kPatchCols = kTileCols + kTapCols;                // a multiple of 4: rows stay float4-aligned

__global__ void __launch_bounds__(kThreads) conv2dTiled(const float* __restrict__ A, const float* __restrict__ B,
                                                        float* __restrict__ C, int h, int w, int kh, int kw) {
  __shared__ __align__(16) float patch[kPatchRows][kPatchCols];
  __shared__ __align__(16) float taps[kTapRows][kTapCols];
  const int rowBase = blockIdx.y * kTileRows, colBase = blockIdx.x * kTileCols;
  const int ty = threadIdx.x / (kTileCols / kPerThread), tx = threadIdx.x % (kTileCols / kPerThread);
  const int radiusRows = kh / 2, radiusCols = kw / 2;
  float acc[kPerThread] = {};

  for (int tapRow = 0; tapRow < kh; tapRow += kTapRows) {
    const int rows = min(kTapRows, kh - tapRow);
    for (int tapCol = 0; tapCol < kw; tapCol += kTapCols) {
      const int cols = min(kTapCols, kw - tapCol);
      const int padded = (cols + 3) & ~3;  // whole float4s; the extra taps are zero
      __syncthreads();                     // the previous step's patch and taps are no longer read
      for (int q = threadIdx.x; q < rows * padded; q += kThreads) {
        const int u = q / padded, v = q % padded;
        taps[u][v] = v < cols ? B[(tapRow + u) * kw + tapCol + v] : 0.0f;
      }
      // Output (rowBase + y, colBase + x) at tap (tapRow + u, tapCol + v) reads patch[y + u][x + v].
      const int top = rowBase + tapRow - radiusRows, left = colBase + tapCol - radiusCols;
      const int patchCols = kTileCols + padded;
      for (int q = threadIdx.x; q < (kTileRows + rows - 1) * patchCols; q += kThreads) {
        const int y = q / patchCols, x = q % patchCols;
        const int gr = top + y, gc = left + x;
        patch[y][x] = (gr >= 0 && gr < h && gc >= 0 && gc < w) ? A[(size_t)gr * w + gc] : 0.0f;
      }
      __syncthreads();

      for (int u = 0; u < rows; ++u) {
        // This thread's outputs are x = 4tx … 4tx+3: at taps v … v+3 they need patch[ty + u][4tx + v … 4tx + v + 6].
        const float4* window = reinterpret_cast<const float4*>(patch[ty + u]) + tx;
        const float4* tap4 = reinterpret_cast<const float4*>(taps[u]);
        float4 cur = window[0];
        for (int v4 = 0; v4 < padded / 4; ++v4) {
          const float4 next = window[v4 + 1];
          const float4 t4 = tap4[v4];
          const float x[8] = {cur.x, cur.y, cur.z, cur.w, next.x, next.y, next.z, next.w};
          const float t[4] = {t4.x, t4.y, t4.z, t4.w};
#pragma unroll
          for (int v = 0; v < 4; ++v)
#pragma unroll
            for (int o = 0; o < kPerThread; ++o) acc[o] += x[o + v] * t[v];
          cur = next;
        }
      }
    }
  }

  const int row = rowBase + ty;
  if (row >= h) return;
#pragma unroll
  for (int o = 0; o < kPerThread; ++o) {
    const int col = colBase + tx * kPerThread + o;
    if (col < w) C[(size_t)row * w + col] = acc[o];
  }
}

extern "C" void solution(const float* A, const float* B, float* C, size_t H, size_t W, size_t Kh, size_t Kw) {
  dim3 grid((unsigned)((W + kTileCols - 1) / kTileCols), (unsigned)((H + kTileRows - 1) / kTileRows));
  conv2dTiled<<<grid, kThreads>>>(A, B, C, (int)H, (int)W, (int)Kh, (int)Kw);
}
