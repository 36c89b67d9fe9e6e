// The block-scaled formats' encodings, decoded as the OCP Microscaling spec (v1.0) and NVIDIA's NVFP4 define them:
// E2M1 (FP4) and E4M3 (FP8) elements, E8M0 (power of two) and E4M3 scales. Written out bit by bit, with no
// cuda_fp8.h intrinsics, so that the reference does not rest on the conversions a solution may use.
#include <stdint.h>

// E2M1: sign, 2 exponent bits (bias 1), 1 mantissa bit; no infinities or NaN. The eight magnitudes by code.
__device__ inline float decodeE2M1(unsigned code) {
  const float magnitudes[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
  float magnitude = magnitudes[code & 7u];
  return (code & 8u) ? -magnitude : magnitude;
}

// Element i of a row-major matrix packed two E2M1 codes per byte, the even element in the low nibble.
__device__ inline float packedE2M1(const uint8_t* q, size_t i) {
  uint8_t pair = q[i / 2];
  return decodeE2M1(i % 2 == 0 ? pair & 0xFu : pair >> 4);
}

// E4M3 (the "fn" variant): sign, 4 exponent bits (bias 7), 3 mantissa bits; S.1111.111 is NaN, no infinities.
__device__ inline float decodeE4M3(uint8_t code) {
  unsigned exponent = (code >> 3) & 0xFu, mantissa = code & 7u;
  float magnitude;
  if (exponent == 0xFu && mantissa == 7u) magnitude = __int_as_float(0x7FC00000);
  else if (exponent == 0) magnitude = ldexpf((float)mantissa, -9);  // subnormal: mantissa/8 · 2^(1-7)
  else magnitude = ldexpf(1.0f + (float)mantissa / 8.0f, (int)exponent - 7);
  return (code & 0x80u) ? -magnitude : magnitude;
}

// E8M0: an unsigned exponent, 2^(code - 127); 0xFF is NaN.
__device__ inline float decodeE8M0(uint8_t code) {
  return code == 0xFFu ? __int_as_float(0x7FC00000) : ldexpf(1.0f, (int)code - 127);
}

// Where the scale of row `row`, block `block` lies in cuBLAS's 1-D block-scaling-factor layout (the "128x4" swizzle
// of NVFP4 and of torch's SWIZZLE_32_4_4): the scale matrix, `blocks` per row, is padded to whole tiles of 128 rows
// × 4 blocks; tiles are stored row by row, 512 bytes each, and within a tile row r and block c lie at
// (r % 32)·16 + (r / 32)·4 + c.
__device__ inline size_t swizzledScaleOffset(size_t row, size_t block, size_t blocks) {
  size_t tilesPerRow = (blocks + 3) / 4;
  size_t tile = (row / 128) * tilesPerRow + block / 4;
  return tile * 512 + (row % 32) * 16 + (row % 128) / 32 * 4 + block % 4;
}

// The element and scale codes, as functors for decodeSwizzled.
struct Fp8Elements {
  __device__ float operator()(const uint8_t* q, size_t i) const { return decodeE4M3(q[i]); }
};
struct Fp4Elements {
  __device__ float operator()(const uint8_t* q, size_t i) const { return packedE2M1(q, i); }
};
struct E8M0Scales {
  __device__ float operator()(uint8_t code) const { return decodeE8M0(code); }
};
struct E4M3Scales {
  __device__ float operator()(uint8_t code) const { return decodeE4M3(code); }
};

// A rows×cols block-scaled matrix (row-major elements, one scale per BLOCK along a row, 128×4 swizzled) decoded to
// float, one thread per element. Element × scale is exact in float for these formats.
template <class Elements, class Scales, int BLOCK>
__global__ void decodeSwizzled(const uint8_t* q, const uint8_t* scale, float* out, size_t rows, size_t cols) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= rows * cols) return;
  size_t row = i / cols, col = i % cols;
  out[i] = Elements()(q, i) * Scales()(scale[swizzledScaleOffset(row, col / BLOCK, cols / BLOCK)]);
}
