// NVFP4 GEMM, C = A·Bᵀ / (sf_g_a·sf_g_b) in half, for a GPU without FP4 tensor cores: a 64×64 tile of C per block of
// 256 threads, each thread accumulating 4×4 outputs in fp32 (strided by 16, so shared-memory reads and global writes
// stay coalesced). Each 32-deep slice of k is two scale blocks: every thread decodes elements of A and B into shared
// memory as floats, times their block's E4M3 scale; the global factors are applied once, to the sums.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <stdint.h>

constexpr int TILE = 64, DEPTH = 32, SIDE = 16, PER_THREAD = TILE / SIDE, THREADS = SIDE * SIDE;

// E2M1's three magnitude bits, moved to float's exponent and mantissa positions, are a float 2^126 too small (bias 1
// against 127); the multiplication rebiases the normal codes and the subnormal 0.5 alike.
__device__ __forceinline__ float e2m1ToFloat(uint32_t code) {
  float magnitude = __uint_as_float((code & 7u) << 22) * 0x1p126f;
  return __uint_as_float(__float_as_uint(magnitude) | ((code & 8u) << 28));
}

// Element i of a matrix packed two codes per byte, the even element in the low nibble.
__device__ __forceinline__ float packedAt(const uint8_t* q, size_t i) {
  uint32_t pair = q[i / 2];
  return e2m1ToFloat(i % 2 == 0 ? pair : pair >> 4);
}

// Scale of (row, block) in the 128×4 swizzled layout: tiles of 128 rows × 4 blocks, 512 bytes each, stored row by
// row; inside a tile, rows r and r + 32·j interleave as 16-byte lines of 4 blocks.
// The scales are non-negative E4M3: seven magnitude bits rebiased from 7 to 127, subnormals included.
__device__ __forceinline__ float scaleAt(const uint8_t* scale, size_t row, size_t block, size_t tilesPerRow) {
  size_t offset = ((row >> 7) * tilesPerRow + (block >> 2)) * 512 + (row & 31) * 16 + ((row >> 5) & 3) * 4 + (block & 3);
  return __uint_as_float((scale[offset] & 0x7Fu) << 20) * 0x1p120f;
}

__global__ void nvfp4Gemm(const uint8_t* qa, const uint8_t* sa, const uint8_t* qb, const uint8_t* sb, float decode,
                          __half* c, size_t m, size_t n, size_t k) {
  __shared__ float as[DEPTH][TILE + 1];  // as[q][r] = A[rowBase + r][kk + q], decoded
  __shared__ float bs[DEPTH][TILE + 1];  // bs[q][j] = B[colBase + j][kk + q], decoded
  const int tx = threadIdx.x % SIDE, ty = threadIdx.x / SIDE;
  const size_t rowBase = blockIdx.y * (size_t)TILE, colBase = blockIdx.x * (size_t)TILE;
  const size_t tilesPerRow = (k / 16 + 3) / 4;
  float acc[PER_THREAD][PER_THREAD] = {};
  for (size_t kk = 0; kk < k; kk += DEPTH) {
    // k is a multiple of 16, not of 32: a slice may end past k, read as zeros.
    for (int l = threadIdx.x; l < TILE * DEPTH; l += THREADS) {
      const int r = l / DEPTH, q = l % DEPTH;  // pairs of consecutive threads read the same byte of a row
      const size_t row = rowBase + r, col = colBase + r;
      const size_t kq = kk + q;
      as[q][r] = row < m && kq < k ? packedAt(qa, row * k + kq) * scaleAt(sa, row, kq / 16, tilesPerRow) : 0.0f;
      bs[q][r] = col < n && kq < k ? packedAt(qb, col * k + kq) * scaleAt(sb, col, kq / 16, tilesPerRow) : 0.0f;
    }
    __syncthreads();
    for (int q = 0; q < DEPTH; ++q)
      for (int i = 0; i < PER_THREAD; ++i)
        for (int j = 0; j < PER_THREAD; ++j) acc[i][j] += as[q][ty + SIDE * i] * bs[q][tx + SIDE * j];
    __syncthreads();
  }
  for (int i = 0; i < PER_THREAD; ++i)
    for (int j = 0; j < PER_THREAD; ++j) {
      const size_t row = rowBase + ty + SIDE * i, col = colBase + tx + SIDE * j;
      if (row < m && col < n) c[row * n + col] = __float2half(acc[i][j] * decode);
    }
}

extern "C" void solution(const uint8_t* q_a, const uint8_t* scale_a, float sf_g_a, const uint8_t* q_b,
                         const uint8_t* scale_b, float sf_g_b, __half* c, size_t m, size_t n, size_t k) {
  const dim3 grid((unsigned)((n + TILE - 1) / TILE), (unsigned)((m + TILE - 1) / TILE));
  nvfp4Gemm<<<grid, THREADS>>>(q_a, scale_a, q_b, scale_b, (1.0f / sf_g_a) * (1.0f / sf_g_b), c, m, n, k);
}
