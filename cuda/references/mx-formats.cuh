// The block-scaled formats' encodings, decoded and encoded as the OCP Microscaling spec (v1.0) and NVIDIA's NVFP4
// define them: E2M1 (FP4) and E4M3 (FP8) elements, E8M0 (power of two) and E4M3 scales. Written out bit by bit, with
// no cuda_fp8.h or cuda_fp4.h intrinsics, so that the reference does not rest on the conversions a solution may use.
#include <math.h>
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

// The E2M1 code nearest x, ties to the even code, magnitudes beyond 6 saturated to 6: round-to-nearest-even with
// saturation, as torch's and PTX's (cvt.rn.satfinite) conversions round. The sign is kept, zero's too.
__device__ inline uint8_t encodeE2M1(float x) {
  const double magnitudes[8] = {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0};
  double magnitude = fmin(fabs((double)x), 6.0);
  unsigned best = 0;
  for (unsigned code = 1; code < 8; code++) {
    double distance = fabs(magnitude - magnitudes[code]), bestDistance = fabs(magnitude - magnitudes[best]);
    if (distance < bestDistance || (distance == bestDistance && code % 2 == 0)) best = code;
  }
  return (signbit(x) ? 8u : 0u) | best;
}

// The E4M3 code nearest x, ties to even, magnitudes from 448 (the largest finite value) up saturated to 448, as torch's
// float8_e4m3fn cast and PTX's cvt.rn.satfinite do. x is rounded to a whole number of its binade's steps (2^-9 below
// 2^-6, where E4M3 is subnormal; 2^(e-3) in [2^e, 2^(e+1))), which the code then spells exactly.
__device__ inline uint8_t encodeE4M3(float x) {
  uint8_t sign = signbit(x) ? 0x80u : 0u;
  float magnitude = fabsf(x);
  if (!(magnitude < 448.0f)) return sign | 0x7Eu;
  int binade;
  frexpf(magnitude, &binade);  // magnitude in [2^(binade-1), 2^binade)
  int stepExponent = max(binade - 1, -6) - 3;
  float rounded = ldexpf(rintf(ldexpf(magnitude, -stepExponent)), stepExponent);  // rintf: nearest, ties to even
  if (rounded < 0x1p-6f) return sign | (uint8_t)ldexpf(rounded, 9);  // subnormal: the mantissa counts steps of 2^-9
  frexpf(rounded, &binade);
  unsigned mantissa = (unsigned)ldexpf(rounded, 4 - binade) - 8u;  // rounded / 2^(binade-1) = 1 + mantissa/8
  return sign | (uint8_t)((binade - 1 + 7) << 3) | (uint8_t)mantissa;
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

// A rows×cols block-scaled matrix with row-major scales (one per BLOCK along a row, as torchao's MXTensor lays them
// out) decoded to float, one thread per element of `count`. Element × scale is exact in float.
template <class Elements, class Scales, int BLOCK>
__global__ void decodeRowMajor(const uint8_t* q, const uint8_t* scale, float* out, size_t count) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < count) out[i] = Elements()(q, i) * Scales()(scale[i / BLOCK]);
}

// An m×k NVFP4 matrix decoded as FlashInfer's e2m1_and_ufp8sf_scale_to_float does: E2M1 element × E4M3 scale of its
// block of 16 (128×4 swizzled) × `decode`, the global decode factor 1/sf_g. Element × scale is exact in float; the
// last multiplication rounds once.
__global__ void decodeNvfp4(const uint8_t* q, const uint8_t* scale, float decode, float* out, size_t m, size_t k) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= m * k) return;
  size_t row = i / k, col = i % k;
  float blockScale = decodeE4M3(scale[swizzledScaleOffset(row, col / 16, k / 16)]);
  out[i] = packedE2M1(q, i) * blockScale * decode;
}
