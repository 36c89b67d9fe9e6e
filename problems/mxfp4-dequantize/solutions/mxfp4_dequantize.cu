// MXFP4 dequantization: each thread turns 4 bytes (8 E2M1 codes, one 4-byte load) into 8 floats (two 16-byte stores).
// 8 elements never straddle a block of 32, so one scale serves them all.
#include <cuda_runtime.h>
#include <stdint.h>

// E2M1's three magnitude bits, moved to float's exponent and mantissa positions, are a float 2^126 too small (bias 1
// against 127); the multiplication rebiases the normal codes and the subnormal 0.5 alike.
__device__ __forceinline__ float e2m1ToFloat(uint32_t code) {
  float magnitude = __uint_as_float((code & 7u) << 22) * 0x1p126f;
  return __uint_as_float(__float_as_uint(magnitude) | ((code & 8u) << 28));
}

// Four codes from the low 16 bits of `pairs`, the low nibble of each byte first.
__device__ __forceinline__ float4 dequantizeHalfword(uint32_t pairs, float scale) {
  return make_float4(e2m1ToFloat(pairs) * scale, e2m1ToFloat(pairs >> 4) * scale, e2m1ToFloat(pairs >> 8) * scale,
                     e2m1ToFloat(pairs >> 12) * scale);
}

__global__ void mxfp4Dequantize(const uint32_t* q, const uint8_t* scale, float4* out, size_t groups) {
  for (size_t g = blockIdx.x * (size_t)blockDim.x + threadIdx.x; g < groups; g += (size_t)gridDim.x * blockDim.x) {
    uint32_t codes = q[g];
    float s = ldexpf(1.0f, (int)scale[g / 4] - 127);  // four groups of 8 per block of 32
    out[2 * g] = dequantizeHalfword(codes & 0xFFFFu, s);
    out[2 * g + 1] = dequantizeHalfword(codes >> 16, s);
  }
}

extern "C" void solution(const uint8_t* q, const uint8_t* scale, float* out, size_t m, size_t k) {
  size_t groups = m * k / 8;  // K is a multiple of 32
  size_t blocks = (groups + 255) / 256;
  mxfp4Dequantize<<<(unsigned)(blocks < 65535 * 32 ? blocks : 65535 * 32), 256>>>((const uint32_t*)q, scale, (float4*)out, groups);
}
