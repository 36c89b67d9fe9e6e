// Reference for mxfp8-gemm: C = A·Bᵀ of two MXFP8 matrices (E4M3 elements, swizzled E8M0 scales), see
// block-scaled-gemm.cuh.
#include "block-scaled-gemm.cuh"

extern "C" void reference(const uint8_t* q_a, const uint8_t* scale_a, const uint8_t* q_b, const uint8_t* scale_b,
                          float* c, size_t m, size_t n, size_t k) {
  blockScaledGemmReference<Fp8Elements, E8M0Scales, 32>(q_a, scale_a, q_b, scale_b, c, m, n, k, 1.0);
}
