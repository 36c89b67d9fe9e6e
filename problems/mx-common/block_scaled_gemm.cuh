// Block-scaled GEMM, C = A·Bᵀ, for a GPU without MX or FP4 tensor cores: a 64×64 tile of C per block of 256 threads,
// each thread accumulating 4×4 outputs in fp32 (strided by 16, so shared-memory reads and global writes stay
// coalesced). Each 32-deep slice of k is one or two scale blocks: every thread decodes elements of A and B into shared
// memory as floats, each times its row's scale for its block; an epilogue turns each sum into C's element. The
// operand format (Mxfp8, Mxfp4, Nvfp4) and the epilogue are template parameters.
#pragma once
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <stdint.h>

namespace bsgemm {

constexpr int TILE = 64, DEPTH = 32, SIDE = 16, PER_THREAD = TILE / SIDE, THREADS = SIDE * SIDE;

// E4M3's seven magnitude bits, moved to float's exponent and mantissa positions, are a float 2^120 too small (bias 7
// against 127); the multiplication rebiases normals and subnormals alike.
__device__ __forceinline__ float e4m3ToFloat(uint32_t code) {
  float magnitude = __uint_as_float((code & 0x7Fu) << 20) * 0x1p120f;
  return __uint_as_float(__float_as_uint(magnitude) | ((code & 0x80u) << 24));
}

// E2M1's three magnitude bits, moved to float's exponent and mantissa positions, are a float 2^126 too small (bias 1
// against 127); the multiplication rebiases the normal codes and the subnormal 0.5 alike.
__device__ __forceinline__ float e2m1ToFloat(uint32_t code) {
  float magnitude = __uint_as_float((code & 7u) << 22) * 0x1p126f;
  return __uint_as_float(__float_as_uint(magnitude) | ((code & 8u) << 28));
}

// Element i of a matrix packed two E2M1 codes per byte, the even element in the low nibble.
__device__ __forceinline__ float packedE2M1(const uint8_t* q, size_t i) {
  uint32_t pair = q[i / 2];
  return e2m1ToFloat(i % 2 == 0 ? pair : pair >> 4);
}

// The scale byte of (row, block) in the 128×4 swizzled layout: tiles of 128 rows × 4 blocks, 512 bytes each, stored
// row by row; inside a tile, rows r and r + 32·j interleave as 16-byte lines of 4 blocks.
__device__ __forceinline__ uint8_t swizzledScale(const uint8_t* scale, size_t row, size_t block, size_t tilesPerRow) {
  return scale[((row >> 7) * tilesPerRow + (block >> 2)) * 512 + (row & 31) * 16 + ((row >> 5) & 3) * 4 + (block & 3)];
}

// The operand formats: elements of k per scale, an element by index, a scale by its byte.
struct Mxfp8 {  // E4M3 elements, E8M0 scales
  static constexpr int BLOCK = 32;
  __device__ static float element(const uint8_t* q, size_t i) { return e4m3ToFloat(q[i]); }
  __device__ static float scale(uint8_t code) { return ldexpf(1.0f, (int)code - 127); }
};
struct Mxfp4 {  // E2M1 elements, E8M0 scales
  static constexpr int BLOCK = 32;
  __device__ static float element(const uint8_t* q, size_t i) { return packedE2M1(q, i); }
  __device__ static float scale(uint8_t code) { return ldexpf(1.0f, (int)code - 127); }
};
struct Nvfp4 {  // E2M1 elements, non-negative E4M3 scales
  static constexpr int BLOCK = 16;
  __device__ static float element(const uint8_t* q, size_t i) { return packedE2M1(q, i); }
  __device__ static float scale(uint8_t code) { return e4m3ToFloat(code & 0x7Fu); }
};

// Element (row, kq) of a row-major operand with k columns, times its block's scale.
template <class Format>
__device__ __forceinline__ float decoded(const uint8_t* q, const uint8_t* scale, size_t row, size_t kq, size_t k, size_t tilesPerRow) {
  return Format::element(q, row * k + kq) * Format::scale(swizzledScale(scale, row, kq / Format::BLOCK, tilesPerRow));
}

// Epilogues: the sum as it is (float C), or times a factor and rounded to half (NVFP4's global decode factors).
struct AsFloat {
  using Out = float;
  __device__ float operator()(float sum) const { return sum; }
};
struct ScaledHalf {
  using Out = __half;
  float factor;
  __device__ __half operator()(float sum) const { return __float2half(sum * factor); }
};

template <class Format, class Epilogue>
__global__ void gemm(const uint8_t* qa, const uint8_t* sa, const uint8_t* qb, const uint8_t* sb, Epilogue epilogue,
                     typename Epilogue::Out* c, size_t m, size_t n, size_t k) {
  __shared__ float as[DEPTH][TILE + 1];  // as[q][r] = A[rowBase + r][kk + q], decoded
  __shared__ float bs[DEPTH][TILE + 1];  // bs[q][j] = B[colBase + j][kk + q], decoded
  const int tx = threadIdx.x % SIDE, ty = threadIdx.x / SIDE;
  const size_t rowBase = blockIdx.y * (size_t)TILE, colBase = blockIdx.x * (size_t)TILE;
  const size_t tilesPerRow = (k / Format::BLOCK + 3) / 4;
  float acc[PER_THREAD][PER_THREAD] = {};
  for (size_t kk = 0; kk < k; kk += DEPTH) {
    // k holds whole scale blocks, not always whole slices (NVFP4's blocks are 16): a slice may end past k, read as zeros.
    for (int l = threadIdx.x; l < TILE * DEPTH; l += THREADS) {
      const int r = l / DEPTH, q = l % DEPTH;  // consecutive threads read consecutive elements of a row
      const size_t row = rowBase + r, col = colBase + r, kq = kk + q;
      as[q][r] = row < m && kq < k ? decoded<Format>(qa, sa, row, kq, k, tilesPerRow) : 0.0f;
      bs[q][r] = col < n && kq < k ? decoded<Format>(qb, sb, col, kq, k, tilesPerRow) : 0.0f;
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
      if (row < m && col < n) c[row * n + col] = epilogue(acc[i][j]);
    }
}

template <class Format, class Epilogue>
void launch(const uint8_t* qa, const uint8_t* sa, const uint8_t* qb, const uint8_t* sb, Epilogue epilogue,
            typename Epilogue::Out* c, size_t m, size_t n, size_t k) {
  const dim3 grid((unsigned)((n + TILE - 1) / TILE), (unsigned)((m + TILE - 1) / TILE));
  gemm<Format><<<grid, THREADS>>>(qa, sa, qb, sb, epilogue, c, m, n, k);
}

}  // namespace bsgemm
