// Reference for the MX GEMMs (mxfp8-gemm, mxfp4-gemm): C[m×n] = A·Bᵀ with A (m×k) and B (n×k) MX matrices, both
// decoded to float first (exactly: element × power-of-two scale) and multiplied by the shared tiled GEMM accumulating
// in double.
#include "mx-formats.cuh"
#include "../../problems/gemm-common/reference_gemm.cuh"

template <class Elements>
void mxGemmReference(const uint8_t* q_a, const uint8_t* scale_a, const uint8_t* q_b, const uint8_t* scale_b, float* c,
                     size_t m, size_t n, size_t k) {
  float *a, *b;
  cudaMalloc(&a, m * k * sizeof(float));
  cudaMalloc(&b, n * k * sizeof(float));
  decodeSwizzledMx<Elements><<<(unsigned)((m * k + 255) / 256), 256>>>(q_a, scale_a, a, m, k);
  decodeSwizzledMx<Elements><<<(unsigned)((n * k + 255) / 256), 256>>>(q_b, scale_b, b, n, k);
  referenceGemm::launchTiledGemm<true>(a, b, c, m, n, k);
  cudaFree(a);
  cudaFree(b);
}
