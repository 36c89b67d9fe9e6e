// Reference for nvfp4-quantize: FlashInfer's nvfp4_quantize (its cvt_warp_fp16_to_fp4 recipe, 128×4 swizzled scales),
// one thread per block of 16 along K, and the decoding both sides' outputs are judged by (FlashInfer's
// e2m1_and_ufp8sf_scale_to_float with the decode factor 1/sf_g).
#include <cuda_fp16.h>
#include "mx-formats.cuh"

// FlashInfer's reciprocal_approximate_ftz: its recipe takes every reciprocal with rcp.approx, and which E2M1 code an
// element rounds to can hang on the last bit of the block's factor.
__device__ inline float approximateReciprocal(float x) {
  float r;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}

// The block's scale is E4M3(sf_g · amax / 6); its elements are x · 1/(scale · 1/sf_g), rounded to E2M1 (nearest even,
// saturated). Scales of the padding rows and blocks of the 128×4 tiles are left alone: nothing decodes them.
__global__ void nvfp4QuantizeBlocks(const __half* a, float sf_g, uint8_t* q, uint8_t* scale, size_t m, size_t k) {
  size_t blocksPerRow = k / 16, b = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (b >= m * blocksPerRow) return;
  const __half* x = a + b * 16;
  float amax = 0.0f;
  for (int i = 0; i < 16; i++) amax = fmaxf(amax, fabsf(__half2float(x[i])));
  uint8_t scaleCode = encodeE4M3(sf_g * (amax * approximateReciprocal(6.0f)));
  float blockScale = decodeE4M3(scaleCode);
  float encode = blockScale != 0.0f ? approximateReciprocal(blockScale * approximateReciprocal(sf_g)) : 0.0f;
  scale[swizzledScaleOffset(b / blocksPerRow, b % blocksPerRow, blocksPerRow)] = scaleCode;
  for (int i = 0; i < 8; i++) {
    uint8_t low = encodeE2M1(__half2float(x[2 * i]) * encode), high = encodeE2M1(__half2float(x[2 * i + 1]) * encode);
    q[b * 8 + i] = low | (uint8_t)(high << 4);
  }
}

extern "C" void reference(const __half* a, float sf_g, uint8_t* q, uint8_t* scale, size_t m, size_t k) {
  size_t blocks = m * k / 16;
  nvfp4QuantizeBlocks<<<(unsigned)((blocks + 255) / 256), 256>>>(a, sf_g, q, scale, m, k);
}

extern "C" void decode(const __half* a, float sf_g, const uint8_t* q, const uint8_t* scale, size_t m, size_t k,
                       float* dequantized) {
  size_t count = m * k;
  decodeNvfp4<<<(unsigned)((count + 255) / 256), 256>>>(q, scale, 1.0f / sf_g, dequantized, m, k);
}
