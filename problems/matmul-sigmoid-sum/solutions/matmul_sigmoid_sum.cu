// Σ σ(A·B) in fp32 without storing the product: each block of the GEMM family's tiled kernel accumulates its 128×128
// tile of A·B in registers, sums σ of its outputs inside C, and adds the block's sum to the output with one atomic.
// Float atomics suffice: at most 64 block sums of up to 16384 each, far inside rtol 5e-2.
#include "../../gemm-common/sgemm_tiled.cuh"

namespace sg = gemm::sgemm;

__device__ float warpSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void __launch_bounds__(sg::THREADS) sigmoidSum(const float* __restrict__ a, const float* __restrict__ b, float* total, int m,
                                                          int n, int k) {
  const int rowBase = blockIdx.y * sg::BM, colBase = blockIdx.x * sg::BN;
  float acc[sg::TM][sg::TN] = {};
  sg::accumulateTile<gemm::RowMajorB, gemm::Dense>(a, b, m, n, k, rowBase, colBase, acc);
  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < sg::TM; ++i) {
#pragma unroll
    for (int j = 0; j < sg::TN; ++j) {
      if (sg::outputRow(rowBase, i) < m && sg::outputCol(colBase, j) < n) sum += gemm::sigmoid(acc[i][j]);
    }
  }
  __shared__ float warpSums[sg::THREADS / 32];
  sum = warpSum(sum);
  if (threadIdx.x % 32 == 0) warpSums[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x < 32) {
    sum = warpSum(threadIdx.x < sg::THREADS / 32 ? warpSums[threadIdx.x] : 0.0f);
    if (threadIdx.x == 0) atomicAdd(total, sum);
  }
}

extern "C" void solution(const float* A, const float* B, float* output, size_t M, size_t N, size_t K) {
  cudaMemsetAsync(output, 0, sizeof(float), 0);  // the blocks' atomics add into it
  sigmoidSum<<<gemm::sgemmGrid(M, N), sg::THREADS>>>(A, B, output, (int)M, (int)N, (int)K);
}
