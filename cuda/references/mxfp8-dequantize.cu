// Reference for mxfp8-dequantize: one thread per element, out = E4M3 element × E8M0 scale of its block of 32 along
// K (scales row-major, M × K/32). The product of the two is exact in float.
#include "mx-formats.cuh"

extern "C" __global__ void mxfp8DequantizeReference(const uint8_t* q, const uint8_t* scale, float* out, size_t count) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < count) out[i] = decodeE4M3(q[i]) * decodeE8M0(scale[i / 32]);
}

extern "C" void reference(const uint8_t* q, const uint8_t* scale, float* out, size_t m, size_t k) {
  size_t count = m * k;
  mxfp8DequantizeReference<<<(unsigned)((count + 255) / 256), 256>>>(q, scale, out, count);
}
