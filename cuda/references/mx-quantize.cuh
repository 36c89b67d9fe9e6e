// What the references of mxfp8- and mxfp4-quantize share: torchao's to_mx (block 32, its default FLOOR scale) and
// the decoding their outputs are judged by (torchao's to_dtype), written out with mx-formats.cuh's codes.
#include "mx-formats.cuh"

// The element formats: their largest power of two (torchao's F8E4M3_MAX_POW2, F4_E2M1_MAX_POW2), the bytes a block of
// 32 takes, and how its 32 elements, already divided by the block's scale, are coded into them.
struct Fp8Codes {
  static constexpr int maxPow2 = 8;  // 448 = 1.75 · 2^8
  static constexpr int bytesPerBlock = 32;
  __device__ void operator()(const float* scaled, uint8_t* q) const {
    for (int i = 0; i < 32; i++) q[i] = encodeE4M3(scaled[i]);
  }
};
struct Fp4Codes {
  static constexpr int maxPow2 = 2;  // 6 = 1.5 · 2^2
  static constexpr int bytesPerBlock = 16;  // two per byte, the even element in the low nibble
  __device__ void operator()(const float* scaled, uint8_t* q) const {
    for (int i = 0; i < 16; i++) q[i] = encodeE2M1(scaled[2 * i]) | (uint8_t)(encodeE2M1(scaled[2 * i + 1]) << 4);
  }
};

// One thread per block of 32 along K. torchao's FLOOR scale is 2^(floor(log2 amax) − maxPow2), floor(log2 amax) read
// from amax's exponent bits, clamped to E8M0's 2^-127..2^128; the elements are x · 2^-(that exponent), rounded to the
// element format (nearest even, saturated: amax can be up to twice the largest power of two, beyond the largest value).
template <class Codes>
__global__ void mxQuantizeBlocks(const float* a, uint8_t* q, uint8_t* scale, size_t blocks) {
  size_t b = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (b >= blocks) return;
  const float* x = a + b * 32;
  float amax = 0.0f;
  for (int i = 0; i < 32; i++) amax = fmaxf(amax, fabsf(x[i]));
  int amaxExponent = (int)((__float_as_uint(amax) >> 23) & 0xFFu) - 127;
  int scaleExponent = min(max(amaxExponent - Codes::maxPow2, -127), 128);
  scale[b] = (uint8_t)(scaleExponent + 127);
  float inverse = ldexpf(1.0f, -scaleExponent);  // exact: torchao's reciprocal E8M0 as a float
  float scaled[32];
  for (int i = 0; i < 32; i++) scaled[i] = x[i] * inverse;
  Codes()(scaled, q + b * Codes::bytesPerBlock);
}

template <class Codes>
void mxQuantize(const float* a, uint8_t* q, uint8_t* scale, size_t m, size_t k) {
  size_t blocks = m * k / 32;
  mxQuantizeBlocks<Codes><<<(unsigned)((blocks + 255) / 256), 256>>>(a, q, scale, blocks);
}

// What a solution's outputs are judged by: q and scale decoded to float, as torchao's to_dtype does.
template <class Elements>
void mxDecode(const uint8_t* q, const uint8_t* scale, float* dequantized, size_t m, size_t k) {
  size_t count = m * k;
  decodeRowMajor<Elements, E8M0Scales, 32><<<(unsigned)((count + 255) / 256), 256>>>(q, scale, dequantized, count);
}
