// Shared-memory tiled fp32 GEMM with register blocking: a 128×128 tile of C per block of 256 threads, each thread
// computing an 8×8 sub-tile from 8-deep slices of A and B staged in shared memory. Any M, N, K (edges guarded).
// B is row-major or transposed (see gemm_common.cuh); the epilogue is applied to every output before it is stored.
// A Triangle shape (triangular operands) skips the slices of K and the elements outside the operands' triangles.
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

// Accumulates this thread's TM×TN outputs of the block's BM×BN tile of C (top-left corner rowBase, colBase) over the
// slices of K that Shape keeps (see Dense and Triangle in gemm_common.cuh), with the elements of A and B it zeroes
// read as 0. Every thread of the block must call it: it holds the block's barriers.
template <class BLayout, class Shape>
__device__ __forceinline__ void accumulateTile(const float* __restrict__ a, const float* __restrict__ b, int m, int n,
                                               int k, int rowBase, int colBase, float (&acc)[TM][TN]) {
  __shared__ float as[BK][BM];
  __shared__ float bs[BK][BN];
  const int tx = threadIdx.x % (BN / TN), ty = threadIdx.x / (BN / TN);
  float ra[TM], rb[TN];
  const int kEnd = Shape::kEnd(rowBase, colBase, BM, BN, k);
  for (int kk = Shape::kBegin(rowBase, colBase); kk < kEnd; kk += BK) {
    loadKContiguous(as, a, m, k, rowBase, kk);
    if constexpr (std::is_same_v<BLayout, TransposedB>) {
      loadKContiguous(bs, b, n, k, colBase, kk);
    } else {
      loadNContiguous(bs, b, n, k, colBase, kk);
    }
    if constexpr (!Shape::kDense) {
      // Zero the elements outside the operands' triangles (the matrices are read as they are, whatever they hold
      // there), once every thread's loads have landed.
      static_assert(BM == BN, "one pass zeroes both tiles");
      __syncthreads();
      for (int l = threadIdx.x; l < BK * BM; l += blockDim.x) {
        const int q = l / BM, r = l % BM;
        if (!Shape::keepA(rowBase + r, kk + q)) as[q][r] = 0.0f;
        if (!Shape::keepB(kk + q, colBase + r)) bs[q][r] = 0.0f;
      }
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
}

/** The row and column of C that a thread's output (i, j) of its block's tile is. */
__device__ __forceinline__ int outputRow(int rowBase, int i) { return rowBase + (int)(threadIdx.x / (BN / TN)) * TM + i; }
__device__ __forceinline__ int outputCol(int colBase, int j) { return colBase + (int)(threadIdx.x % (BN / TN)) * TN + j; }

template <class BLayout, class Shape, class Epilogue>
__global__ void __launch_bounds__(THREADS) tiledKernel(const float* __restrict__ a, const float* __restrict__ b,
                                                       float* __restrict__ c, int m, int n, int k, Epilogue epilogue) {
  const int rowBase = blockIdx.y * BM, colBase = blockIdx.x * BN;
  float acc[TM][TN] = {};
  accumulateTile<BLayout, Shape>(a, b, m, n, k, rowBase, colBase, acc);
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int row = outputRow(rowBase, i);
    if (row >= m) continue;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int col = outputCol(colBase, j);
      if (col < n) c[(size_t)row * n + col] = epilogue(acc[i][j], row, col);
    }
  }
}

}  // namespace sgemm

/** The grid of sgemm blocks covering an m×n C, one BM×BN tile each. */
inline dim3 sgemmGrid(size_t m, size_t n) {
  return dim3((unsigned)((n + sgemm::BN - 1) / sgemm::BN), (unsigned)((m + sgemm::BM - 1) / sgemm::BM));
}

/**
 * C[m×n] = epilogue(A[m×k] · B[k×n]) in fp32 on the legacy default stream; with a Triangle shape, the product of
 * the two operands' triangles (and zeros outside C's).
 */
template <class BLayout, class Epilogue = StoreAccumulator, class Shape = Dense>
void sgemmTiled(const float* a, const float* b, float* c, size_t m, size_t n, size_t k, Epilogue epilogue = {}) {
  sgemm::tiledKernel<BLayout, Shape><<<sgemmGrid(m, n), sgemm::THREADS>>>(a, b, c, (int)m, (int)n, (int)k, epilogue);
}

}  // namespace gemm
