// 3-D convolution (same-size output, zero padding of K/2 on every side), row-major volumes: each block of 32×8
// threads computes a 32×8 column of outputs kDepth planes deep. The whole K³ filter sits in shared memory; the
// block walks the kDepth + K − 1 input planes its outputs need, staging each plane's (8 + K − 1)×(32 + K − 1) patch
// in shared memory (zeros outside the volume) once and feeding it to every output plane it reaches, so a patch
// serves up to kDepth planes of outputs. Any size; K up to 21 (the filter and one patch fit in 48 KiB).
#include <cuda_runtime.h>

constexpr int kTileX = 32, kTileY = 8, kDepth = 8;

__global__ void __launch_bounds__(kTileX * kTileY) conv3dPlaneTiled(const float* __restrict__ A, const float* __restrict__ B,
                                                                    float* __restrict__ C, int n, int k) {
  extern __shared__ float shared[];
  const int taps = k * k * k;
  const int patchW = kTileX + k - 1, patchH = kTileY + k - 1;
  float* filter = shared;        // k³ taps, [x][y][z] as B
  float* patch = shared + taps;  // patchH rows of patchW, one input plane
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * kTileX + tx;
  const int col0 = blockIdx.x * kTileX, row0 = blockIdx.y * kTileY, plane0 = blockIdx.z * kDepth;
  const int radius = k / 2;

  for (int q = tid; q < taps; q += kTileX * kTileY) filter[q] = B[q];
  float acc[kDepth] = {};

  for (int p = 0; p < kDepth + k - 1; ++p) {
    const int plane = plane0 + p - radius;
    __syncthreads();  // the previous plane's patch is no longer read (and, the first time, the filter is written)
    for (int q = tid; q < patchH * patchW; q += kTileX * kTileY) {
      const int y = q / patchW, x = q % patchW;
      const int gr = row0 + y - radius, gc = col0 + x - radius;
      const bool inside = plane >= 0 && plane < n && gr >= 0 && gr < n && gc >= 0 && gc < n;
      patch[q] = inside ? A[((size_t)plane * n + gr) * n + gc] : 0.0f;
    }
    __syncthreads();

    // Output plane plane0 + d reads this input plane at filter depth p − d.
#pragma unroll
    for (int d = 0; d < kDepth; ++d) {
      const int depth = p - d;
      if (depth < 0 || depth >= k) continue;
      const float* slice = filter + depth * k * k;
      float sum = 0.0f;
      for (int y = 0; y < k; ++y) {
        const float* in = patch + (ty + y) * patchW + tx;
        const float* w = slice + y * k;
        for (int x = 0; x < k; ++x) sum += in[x] * w[x];
      }
      acc[d] += sum;
    }
  }

  const int row = row0 + ty, col = col0 + tx;
  if (row >= n || col >= n) return;
#pragma unroll
  for (int d = 0; d < kDepth; ++d)
    if (plane0 + d < n) C[((size_t)(plane0 + d) * n + row) * n + col] = acc[d];
}

extern "C" void solution(const float* A, const float* B, float* C, size_t size, size_t K) {
  const int n = (int)size, k = (int)K;
  const size_t shared = sizeof(float) * ((size_t)k * k * k + (size_t)(kTileY + k - 1) * (kTileX + k - 1));
  dim3 grid((unsigned)((n + kTileX - 1) / kTileX), (unsigned)((n + kTileY - 1) / kTileY), (unsigned)((n + kDepth - 1) / kDepth));
  conv3dPlaneTiled<<<grid, dim3(kTileX, kTileY), shared>>>(A, B, C, n, k);
}
