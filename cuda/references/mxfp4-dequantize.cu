// Reference for mxfp4-dequantize: one thread per element, out = E2M1 element (two per byte, the even one in the low
// nibble) × E8M0 scale of its block of 32 along K (scales row-major, M × K/32). The product is exact in float.
#include "mx-formats.cuh"

extern "C" void reference(const uint8_t* q, const uint8_t* scale, float* out, size_t m, size_t k) {
  size_t count = m * k;
  decodeRowMajor<Fp4Elements, E8M0Scales, 32><<<(unsigned)((count + 255) / 256), 256>>>(q, scale, out, count);
}
