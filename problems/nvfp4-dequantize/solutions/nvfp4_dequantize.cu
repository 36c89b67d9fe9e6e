// NVFP4 dequantization: each thread turns 4 bytes (8 E2M1 codes, one 4-byte load) into 8 floats (two 16-byte
// stores). 8 elements are half a block of 16 along K, so one scale serves them all; scales are read from the 128×4
// swizzled layout.
#include <cuda_runtime.h>
#include <stdint.h>

// E2M1's three magnitude bits, moved to float's exponent and mantissa positions, are a float 2^126 too small (bias 1
// against 127); the multiplication rebiases the normal codes and the subnormal 0.5 alike.
__device__ __forceinline__ float e2m1ToFloat(uint32_t code) {
  float magnitude = __uint_as_float((code & 7u) << 22) * 0x1p126f;
  return __uint_as_float(__float_as_uint(magnitude) | ((code & 8u) << 28));
}

// Non-negative E4M3 (a scale): seven magnitude bits rebiased from 7 to 127, subnormals included.
__device__ __forceinline__ float e4m3ScaleToFloat(uint32_t code) {
  return __uint_as_float((code & 0x7Fu) << 20) * 0x1p120f;
}

// Offset of (row, block) among the scales: tiles of 128 rows × 4 blocks, 512 bytes each, stored row by row; inside a
// tile, rows r and r + 32·j interleave as 16-byte lines of 4 blocks.
__device__ __forceinline__ size_t scaleOffset(size_t row, size_t block, size_t tilesPerRow) {
  return ((row >> 7) * tilesPerRow + (block >> 2)) * 512 + (row & 31) * 16 + ((row >> 5) & 3) * 4 + (block & 3);
}

__device__ __forceinline__ float4 dequantizeHalfword(uint32_t pairs, float scale) {
  return make_float4(e2m1ToFloat(pairs) * scale, e2m1ToFloat(pairs >> 4) * scale, e2m1ToFloat(pairs >> 8) * scale,
                     e2m1ToFloat(pairs >> 12) * scale);
}

__global__ void nvfp4Dequantize(const uint32_t* q, const uint8_t* scale, float decode, float4* out, size_t groupsPerRow,
                                size_t groups, size_t tilesPerRow) {
  for (size_t g = blockIdx.x * (size_t)blockDim.x + threadIdx.x; g < groups; g += (size_t)gridDim.x * blockDim.x) {
    size_t row = g / groupsPerRow, block = (g % groupsPerRow) / 2;  // two groups of 8 per block of 16
    float s = e4m3ScaleToFloat(scale[scaleOffset(row, block, tilesPerRow)]);
    uint32_t codes = q[g];
    // Element × scale is exact; multiplying by the global factor last rounds once, as the reference does.
    float4 low = dequantizeHalfword(codes & 0xFFFFu, s), high = dequantizeHalfword(codes >> 16, s);
    out[2 * g] = make_float4(low.x * decode, low.y * decode, low.z * decode, low.w * decode);
    out[2 * g + 1] = make_float4(high.x * decode, high.y * decode, high.z * decode, high.w * decode);
  }
}

extern "C" void solution(const uint8_t* q, const uint8_t* scale, float sf_g, float* out, size_t m, size_t k) {
  size_t groupsPerRow = k / 8, groups = m * groupsPerRow;  // K is a multiple of 16
  size_t tilesPerRow = (k / 16 + 3) / 4;
  size_t blocks = (groups + 255) / 256;
  nvfp4Dequantize<<<(unsigned)(blocks < 65535 * 32 ? blocks : 65535 * 32), 256>>>(
      (const uint32_t*)q, scale, 1.0f / sf_g, (float4*)out, groupsPerRow, groups, tilesPerRow);
}
