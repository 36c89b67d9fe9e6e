// Reference for nvfp4-dequantize: one thread per element, out = E2M1 element (two per byte, the even one in the low
// nibble) × E4M3 scale of its block of 16 along K (128×4 swizzled layout) × 1/sf_g, the global decode factor
// FlashInfer multiplies by. The element × scale product is exact in float; the last multiplication rounds once.
#include "mx-formats.cuh"

extern "C" __global__ void nvfp4DequantizeReference(const uint8_t* q, const uint8_t* scale, float decode, float* out,
                                                    size_t m, size_t k) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= m * k) return;
  size_t row = i / k, col = i % k;
  float blockScale = decodeE4M3(scale[swizzledScaleOffset(row, col / 16, k / 16)]);
  out[i] = packedE2M1(q, i) * blockScale * decode;
}

extern "C" void reference(const uint8_t* q, const uint8_t* scale, float sf_g, float* out, size_t m, size_t k) {
  size_t count = m * k;
  nvfp4DequantizeReference<<<(unsigned)((count + 255) / 256), 256>>>(q, scale, 1.0f / sf_g, out, m, k);
}
