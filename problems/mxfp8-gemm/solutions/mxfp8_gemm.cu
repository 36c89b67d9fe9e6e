// MXFP8 GEMM, C = A·Bᵀ, for a GPU without MX tensor cores: a 64×64 tile of C per block of 256 threads, each thread
// accumulating 4×4 outputs in fp32 (strided by 16, so shared-memory reads and global writes stay coalesced). Each
// 32-deep slice of k is one scale block: every thread decodes elements of A and B into shared memory as floats, the
// row's scale read once per slice and element.
#include <cuda_runtime.h>
#include <stdint.h>

constexpr int TILE = 64, DEPTH = 32, SIDE = 16, PER_THREAD = TILE / SIDE, THREADS = SIDE * SIDE;

// E4M3's seven magnitude bits, moved to float's exponent and mantissa positions, are a float 2^120 too small (bias 7
// against 127); the multiplication rebiases normals and subnormals alike.
__device__ __forceinline__ float e4m3ToFloat(uint32_t code) {
  float magnitude = __uint_as_float((code & 0x7Fu) << 20) * 0x1p120f;
  return __uint_as_float(__float_as_uint(magnitude) | ((code & 0x80u) << 24));
}

// Scale of (row, block) in the 128×4 swizzled layout: tiles of 128 rows × 4 blocks, 512 bytes each, stored row by
// row; inside a tile, rows r and r + 32·j interleave as 16-byte lines of 4 blocks.
__device__ __forceinline__ float scaleAt(const uint8_t* scale, size_t row, size_t block, size_t tilesPerRow) {
  size_t offset = ((row >> 7) * tilesPerRow + (block >> 2)) * 512 + (row & 31) * 16 + ((row >> 5) & 3) * 4 + (block & 3);
  return ldexpf(1.0f, (int)scale[offset] - 127);
}

__global__ void mxfp8Gemm(const uint8_t* qa, const uint8_t* sa, const uint8_t* qb, const uint8_t* sb, float* c, size_t m,
                          size_t n, size_t k) {
  __shared__ float as[DEPTH][TILE + 1];  // as[q][r] = A[rowBase + r][kk + q], decoded
  __shared__ float bs[DEPTH][TILE + 1];  // bs[q][j] = B[colBase + j][kk + q], decoded
  const int tx = threadIdx.x % SIDE, ty = threadIdx.x / SIDE;
  const size_t rowBase = blockIdx.y * (size_t)TILE, colBase = blockIdx.x * (size_t)TILE;
  const size_t tilesPerRow = (k / 32 + 3) / 4;
  float acc[PER_THREAD][PER_THREAD] = {};
  for (size_t kk = 0; kk < k; kk += DEPTH) {
    for (int l = threadIdx.x; l < TILE * DEPTH; l += THREADS) {
      const int r = l / DEPTH, q = l % DEPTH;  // consecutive threads read consecutive bytes of a row
      const size_t row = rowBase + r, col = colBase + r;
      as[q][r] = row < m ? e4m3ToFloat(qa[row * k + kk + q]) * scaleAt(sa, row, kk / 32, tilesPerRow) : 0.0f;
      bs[q][r] = col < n ? e4m3ToFloat(qb[col * k + kk + q]) * scaleAt(sb, col, kk / 32, tilesPerRow) : 0.0f;
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
      if (row < m && col < n) c[row * n + col] = acc[i][j];
    }
}

extern "C" void solution(const uint8_t* q_a, const uint8_t* scale_a, const uint8_t* q_b, const uint8_t* scale_b, float* c,
                         size_t m, size_t n, size_t k) {
  const dim3 grid((unsigned)((n + TILE - 1) / TILE), (unsigned)((m + TILE - 1) / TILE));
  mxfp8Gemm<<<grid, THREADS>>>(q_a, scale_a, q_b, scale_b, c, m, n, k);
}
