// Matrix-vector product y = A·x with one warp per row of A: the lanes stride along the row in 16-byte chunks of A
// and x, accumulate in fp32 and reduce with warp shuffles. When rows do not start on a 16-byte boundary
// (k not a multiple of the chunk) the row is read element by element instead.
#pragma once
#include <cuda_runtime.h>
#include "../../gemm-common/gemm_common.cuh"

namespace gemv {

constexpr int WARPS = 8, THREADS = 32 * WARPS;

template <class T>
__global__ void __launch_bounds__(THREADS) warpPerRow(const T* __restrict__ a, const T* __restrict__ x,
                                                      T* __restrict__ y, size_t m, size_t k, bool wide) {
  constexpr int VEC = 16 / sizeof(T);
  const size_t row = blockIdx.x * (size_t)WARPS + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= m) return;
  const T* rowA = a + row * k;
  float sum = 0.0f;
  size_t done = 0;
  if (wide) {
    const uint4* chunksA = reinterpret_cast<const uint4*>(rowA);
    const uint4* chunksX = reinterpret_cast<const uint4*>(x);
    const size_t chunks = k / VEC;
#pragma unroll 4
    for (size_t i = lane; i < chunks; i += 32) {
      const uint4 av = chunksA[i], xv = chunksX[i];
      const T* ae = reinterpret_cast<const T*>(&av);
      const T* xe = reinterpret_cast<const T*>(&xv);
#pragma unroll
      for (int e = 0; e < VEC; ++e) sum += gemm::toFloat(ae[e]) * gemm::toFloat(xe[e]);
    }
    done = chunks * VEC;
  }
  for (size_t i = done + lane; i < k; i += 32) sum += gemm::toFloat(rowA[i]) * gemm::toFloat(x[i]);
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (lane == 0) y[row] = gemm::fromFloat<T>(sum);
}

/** y[m] = A[m×k] · x[k] on the legacy default stream. */
template <class T>
void warpPerRowGemv(const T* a, const T* x, T* y, size_t m, size_t k) {
  const bool wide = k % (16 / sizeof(T)) == 0 && gemm::aligned16(a) && gemm::aligned16(x);
  warpPerRow<<<(unsigned)((m + WARPS - 1) / WARPS), THREADS>>>(a, x, y, m, k, wide);
}

}  // namespace gemv
