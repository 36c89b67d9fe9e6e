// MX quantization (torchao's to_mx with its FLOOR scale, block 32): four consecutive threads share a block of 32,
// each loading 8 floats as two float4s; the block's largest magnitude is combined with two shuffles inside the four,
// and each thread converts its 8 elements with cuda_fp8.h / cuda_fp4.h's saturating round-to-nearest-even conversions
// and stores them in one store. The element format comes as a policy (Fp8 or Fp4 below).
#pragma once
#include <cuda_runtime.h>
#include <cuda_fp4.h>
#include <cuda_fp8.h>
#include <stdint.h>

namespace mxq {

// E4M3: 448 = 1.75 · 2^8; 8 elements in 8 bytes.
struct Fp8 {
  static constexpr int maxPow2 = 8;
  using Bytes = uint2;
  __device__ static uint2 convert(const float (&v)[8]) {
    uint32_t word[2];
    for (int w = 0; w < 2; w++) {
      uint32_t low = __nv_cvt_float2_to_fp8x2(make_float2(v[4 * w], v[4 * w + 1]), __NV_SATFINITE, __NV_E4M3);
      uint32_t high = __nv_cvt_float2_to_fp8x2(make_float2(v[4 * w + 2], v[4 * w + 3]), __NV_SATFINITE, __NV_E4M3);
      word[w] = low | (high << 16);
    }
    return make_uint2(word[0], word[1]);
  }
};

// E2M1: 6 = 1.5 · 2^2; 8 elements in 4 bytes, the even element of each pair in the low nibble.
struct Fp4 {
  static constexpr int maxPow2 = 2;
  using Bytes = uint32_t;
  __device__ static uint32_t convert(const float (&v)[8]) {
    uint32_t word = 0;
    for (int p = 0; p < 4; p++) {
      word |= (uint32_t)__nv_cvt_float2_to_fp4x2(make_float2(v[2 * p], v[2 * p + 1]), __NV_E2M1, cudaRoundNearest) << (8 * p);
    }
    return word;
  }
};

template <class Format>
__global__ void quantize(const float4* a, typename Format::Bytes* q, uint8_t* scale, size_t groups) {
  // The four threads of a block are lanes 4j..4j+3 and are in or out of the loop together (groups is a multiple of 4).
  unsigned quad = 0xFu << (threadIdx.x & 28u);
  for (size_t g = blockIdx.x * (size_t)blockDim.x + threadIdx.x; g < groups; g += (size_t)gridDim.x * blockDim.x) {
    float4 first = a[2 * g], second = a[2 * g + 1];
    float v[8] = {first.x, first.y, first.z, first.w, second.x, second.y, second.z, second.w};
    float amax = 0.0f;
    for (float x : v) amax = fmaxf(amax, fabsf(x));
    amax = fmaxf(amax, __shfl_xor_sync(quad, amax, 1));
    amax = fmaxf(amax, __shfl_xor_sync(quad, amax, 2));
    // floor(log2 amax) is amax's biased exponent less 127; the E8M0 code is that less maxPow2, biased by 127.
    int code = min(max((int)(__float_as_uint(amax) >> 23) - Format::maxPow2, 0), 255);
    float inverse = ldexpf(1.0f, 127 - code);
    for (float& x : v) x *= inverse;
    q[g] = Format::convert(v);
    if (g % 4 == 0) scale[g / 4] = (uint8_t)code;
  }
}

template <class Format>
void launch(const float* a, uint8_t* q, uint8_t* scale, size_t m, size_t k) {
  size_t groups = m * k / 8;  // K is a multiple of 32
  size_t blocks = (groups + 255) / 256;
  quantize<Format><<<(unsigned)(blocks < 65535 * 16 ? blocks : 65535 * 16), 256>>>(
      (const float4*)a, (typename Format::Bytes*)q, scale, groups);
}

}  // namespace mxq
