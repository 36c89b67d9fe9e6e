// Reference for mxfp4-gemm: C = A·Bᵀ of two MXFP4 matrices (packed E2M1 elements, swizzled E8M0 scales), see
// mx-gemm.cuh.
#include "mx-gemm.cuh"

extern "C" void reference(const uint8_t* q_a, const uint8_t* scale_a, const uint8_t* q_b, const uint8_t* scale_b,
                          float* c, size_t m, size_t n, size_t k) {
  mxGemmReference<Fp4Elements>(q_a, scale_a, q_b, scale_b, c, m, n, k);
}
