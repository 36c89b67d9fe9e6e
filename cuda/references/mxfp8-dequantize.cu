// Reference for mxfp8-dequantize: one thread per element, out = E4M3 element × E8M0 scale of its block of 32 along
// K (scales row-major, M × K/32). The product of the two is exact in float.
#include "mx-formats.cuh"

extern "C" void reference(const uint8_t* q, const uint8_t* scale, float* out, size_t m, size_t k) {
  size_t count = m * k;
  decodeRowMajor<Fp8Elements, E8M0Scales, 32><<<(unsigned)((count + 255) / 256), 256>>>(q, scale, out, count);
}
