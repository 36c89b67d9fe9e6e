// c[k] = Σ_{i+j=k} a[i]·b[j] mod p, p = 2^31 - 1. A block computes 256 consecutive coefficients; it walks a in tiles
// of 256, staging the tile of a and the 511 coefficients of b its outputs pair with in shared memory. Each product is
// folded below 2^32 (2^31 ≡ 1 mod p) and summed in 64 bits, which cannot overflow for n < 2^32; one reduction at the end.
#include <cuda_runtime.h>
#include <stdint.h>

constexpr int kTile = 256;
constexpr uint32_t kP = 2147483647u;

__device__ __forceinline__ uint64_t foldMersenne31(uint64_t x) { return (x & kP) + (x >> 31); }

__global__ void polyMultiplyFfKernel(const uint32_t* __restrict__ a, const uint32_t* __restrict__ b,
                                     uint32_t* __restrict__ c, long long n) {
  __shared__ uint32_t aTile[kTile];
  __shared__ uint32_t bWindow[2 * kTile];
  const long long k0 = (long long)blockIdx.x * kTile;
  const long long k = k0 + threadIdx.x;
  uint64_t sum = 0;
  for (long long i0 = 0; i0 < n && i0 <= k0 + kTile - 1; i0 += kTile) {
    // Outputs k0 … k0 + 255 with i in i0 … i0 + 255 use b[j] for j = k - i in k0 - i0 - 255 … k0 - i0 + 255.
    const long long jBase = k0 - i0 - (kTile - 1);
    long long i = i0 + threadIdx.x;
    aTile[threadIdx.x] = i < n ? a[i] : 0;
    for (int t = threadIdx.x; t < 2 * kTile - 1; t += kTile) {
      long long j = jBase + t;
      bWindow[t] = (j >= 0 && j < n) ? b[j] : 0;
    }
    __syncthreads();
    // b[k - (i0 + t)] is bWindow[k - i0 - t - jBase] = bWindow[threadIdx.x + kTile - 1 - t]; out-of-range terms are 0.
#pragma unroll 8
    for (int t = 0; t < kTile; ++t) {
      sum += foldMersenne31((uint64_t)aTile[t] * bWindow[threadIdx.x + kTile - 1 - t]);
    }
    __syncthreads();
  }
  if (k < 2 * n - 1) c[k] = (uint32_t)(sum % kP);
}

extern "C" void solution(const uint32_t* d_input1, const uint32_t* d_input2, uint32_t* d_output, size_t n) {
  const size_t outputs = 2 * n - 1;
  polyMultiplyFfKernel<<<(unsigned)((outputs + kTile - 1) / kTile), kTile>>>(d_input1, d_input2, d_output, (long long)n);
}
