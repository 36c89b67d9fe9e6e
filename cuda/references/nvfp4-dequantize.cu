// Reference for nvfp4-dequantize: one thread per element, out = E2M1 element (two per byte, the even one in the low
// nibble) × E4M3 scale of its block of 16 along K (128×4 swizzled layout) × 1/sf_g, the global decode factor
// FlashInfer multiplies by (decodeNvfp4 in mx-formats.cuh).
#include "mx-formats.cuh"

extern "C" void reference(const uint8_t* q, const uint8_t* scale, float sf_g, float* out, size_t m, size_t k) {
  size_t count = m * k;
  decodeNvfp4<<<(unsigned)((count + 255) / 256), 256>>>(q, scale, 1.0f / sf_g, out, m, k);
}
