// Shared-memory tiled sgemm with register blocking: a 128×128 tile of C per block of 256 threads, each thread
// computing an 8×8 sub-tile from 8-deep slices of A and B staged in shared memory. Any m, n, k (edges guarded).
#include <cuda_runtime.h>

constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;

__global__ void __launch_bounds__(256) sgemmTiled(const float* __restrict__ a, const float* __restrict__ b,
                                                  float* __restrict__ c, int m, int n, int k) {
  __shared__ float as[BK][BM];  // A tile stored transposed so that each thread reads a column as a row
  __shared__ float bs[BK][BN];
  const int tx = threadIdx.x % (BN / TN), ty = threadIdx.x / (BN / TN);
  const int rowBase = blockIdx.y * BM, colBase = blockIdx.x * BN;
  float acc[TM][TN] = {};
  float ra[TM], rb[TN];

  for (int kk = 0; kk < k; kk += BK) {
    // 256 threads load 128×8 of A and 8×128 of B: four elements each.
    for (int l = threadIdx.x; l < BM * BK; l += blockDim.x) {
      int r = l / BK, q = l % BK;
      int gr = rowBase + r, gk = kk + q;
      as[q][r] = (gr < m && gk < k) ? a[(size_t)gr * k + gk] : 0.0f;
    }
    for (int l = threadIdx.x; l < BK * BN; l += blockDim.x) {
      int q = l / BN, col = l % BN;
      int gk = kk + q, gc = colBase + col;
      bs[q][col] = (gk < k && gc < n) ? b[(size_t)gk * n + gc] : 0.0f;
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
      if (col < n) c[(size_t)row * n + col] = acc[i][j];
    }
  }
}

extern "C" void solution(const float* input_a, const float* input_b, float* output_c, size_t m, size_t n, size_t k) {
  dim3 grid((unsigned)((n + BN - 1) / BN), (unsigned)((m + BM - 1) / BM));
  sgemmTiled<<<grid, 256>>>(input_a, input_b, output_c, (int)m, (int)n, (int)k);
}
