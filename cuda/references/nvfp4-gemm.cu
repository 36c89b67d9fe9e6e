// Reference for nvfp4-gemm: C = A·Bᵀ / (sf_g_a · sf_g_b) of two NVFP4 matrices (packed E2M1 elements, swizzled E4M3
// scales per 16), rounded once to KB_T (__half), see block-scaled-gemm.cuh.
#include "block-scaled-gemm.cuh"

extern "C" void reference(const uint8_t* q_a, const uint8_t* scale_a, float sf_g_a, const uint8_t* q_b,
                          const uint8_t* scale_b, float sf_g_b, KB_T* c, size_t m, size_t n, size_t k) {
  // The decode factors as FlashInfer and Tensara pass them: float32 reciprocals of the encode factors.
  double factor = (double)(1.0f / sf_g_a) * (double)(1.0f / sf_g_b);
  blockScaledGemmReference<Fp4Elements, E4M3Scales, 16>(q_a, scale_a, q_b, scale_b, c, m, n, k, factor);
}
