// Shared-memory tiled fp32 GEMM with register blocking: a 128×128 tile of C per block of 256 threads, each thread
// computing an 8×8 sub-tile from 8-deep slices of A and B staged in shared memory. Any M, N, K (edges guarded).
// B is row-major or transposed (see gemm_common.cuh); the epilogue is applied to every output before it is stored.
#pragma once
#include <cuda_runtime.h>
#include <type_traits>
#include "gemm_common.cuh"

namespace gemm {
namespace sgemm {

constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8, THREADS = 256;

// Tile of a matrix whose rows run along K (A, or W for TransposedB), stored transposed so that each thread reads
// a column as a row: tile[q][r] = src[base + r][kk + q]. Consecutive threads read consecutive k (coalesced).
__device__ __forceinline__ void loadKContiguous(float (*tile)[BM], const float* __restrict__ src, int rows, int k,
                                                int base, int kk) {
  for (int l = threadIdx.x; l < BM * BK; l += blockDim.x) {
    int r = l / BK, q = l % BK;
    int gr = base + r, gk = kk + q;
    tile[q][r] = (gr < rows && gk < k) ? src[(size_t)gr * k + gk] : 0.0f;
  }
}

// Tile of a K×N row-major B: tile[q][j] = b[kk + q][base + j]. Consecutive threads read consecutive columns.
__device__ __forceinline__ void loadNContiguous(float (*tile)[BN], const float* __restrict__ b, int n, int k, int base,
                                                int kk) {
  for (int l = threadIdx.x; l < BK * BN; l += blockDim.x) {
    int q = l / BN, col = l % BN;
    int gk = kk + q, gc = base + col;
    tile[q][col] = (gk < k && gc < n) ? b[(size_t)gk * n + gc] : 0.0f;
  }
}

template <class BLayout, class Epilogue>
__global__ void __launch_bounds__(THREADS) tiledKernel(const float* __restrict__ a, const float* __restrict__ b,
                                                       float* __restrict__ c, int m, int n, int k, Epilogue epilogue) {
  __shared__ float as[BK][BM];
  __shared__ float bs[BK][BN];
  const int tx = threadIdx.x % (BN / TN), ty = threadIdx.x / (BN / TN);
  const int rowBase = blockIdx.y * BM, colBase = blockIdx.x * BN;
  float acc[TM][TN] = {};
  float ra[TM], rb[TN];

  for (int kk = 0; kk < k; kk += BK) {
    loadKContiguous(as, a, m, k, rowBase, kk);
    if constexpr (std::is_same_v<BLayout, TransposedB>) {
      loadKContiguous(bs, b, n, k, colBase, kk);
    } else {
      loadNContiguous(bs, b, n, k, colBase, kk);
    }
    __syncthreads();
#pragma unroll
    for (int q = 0; q < BK; ++q) {
#pragma unroll
      for (int i = 0; i < TM; ++i) ra[i] = as[q][ty * TM + i];
#pragma unroll
      for (int j = 0; j < TN; ++j) rb[j] = bs[q][tx * TN + j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += ra[i] * rb[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    int row = rowBase + ty * TM + i;
    if (row >= m) continue;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      int col = colBase + tx * TN + j;
      if (col < n) c[(size_t)row * n + col] = epilogue(acc[i][j], col);
    }
  }
}

}  // namespace sgemm

/** C[m×n] = epilogue(A[m×k] · B[k×n]) in fp32 on the legacy default stream. */
template <class BLayout, class Epilogue = StoreAccumulator>
void sgemmTiled(const float* a, const float* b, float* c, size_t m, size_t n, size_t k, Epilogue epilogue = {}) {
  dim3 grid((unsigned)((n + sgemm::BN - 1) / sgemm::BN), (unsigned)((m + sgemm::BM - 1) / sgemm::BM));
  sgemm::tiledKernel<BLayout><<<grid, sgemm::THREADS>>>(a, b, c, (int)m, (int)n, (int)k, epilogue);
}

}  // namespace gemm
