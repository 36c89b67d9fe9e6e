// Reference for mxfp4-dequantize: one thread per element, out = E2M1 element (two per byte, the even one in the low
// nibble) × E8M0 scale of its block of 32 along K (scales row-major, M × K/32). The product is exact in float.
#include "mx-formats.cuh"

extern "C" __global__ void mxfp4DequantizeReference(const uint8_t* q, const uint8_t* scale, float* out, size_t count) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < count) out[i] = packedE2M1(q, i) * decodeE8M0(scale[i / 32]);
}

extern "C" void reference(const uint8_t* q, const uint8_t* scale, float* out, size_t m, size_t k) {
  size_t count = m * k;
  mxfp4DequantizeReference<<<(unsigned)((count + 255) / 256), 256>>>(q, scale, out, count);
}
