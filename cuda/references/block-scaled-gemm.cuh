// Reference for the block-scaled GEMMs (mxfp8-, mxfp4-, nvfp4-gemm): C[m×n] = factor · A·Bᵀ with A (m×k) and B
// (n×k) block-scaled matrices, both decoded to float first (exactly: element × block scale) and multiplied by the
// shared tiled GEMM accumulating in double; `factor` is NVFP4's product of the global decode factors (1 for MX).
#include "mx-formats.cuh"
#include "../../problems/gemm-common/reference_gemm.cuh"

// The double sum times a factor, rounded once to C's type.
struct TimesFactor {
  double factor;
  __device__ double operator()(double acc, size_t /*row*/, size_t /*col*/) const { return acc * factor; }
};

template <class Elements, class Scales, int BLOCK, class TC>
void blockScaledGemmReference(const uint8_t* q_a, const uint8_t* scale_a, const uint8_t* q_b, const uint8_t* scale_b,
                              TC* c, size_t m, size_t n, size_t k, double factor) {
  float *a, *b;
  cudaMalloc(&a, m * k * sizeof(float));
  cudaMalloc(&b, n * k * sizeof(float));
  decodeSwizzled<Elements, Scales, BLOCK><<<(unsigned)((m * k + 255) / 256), 256>>>(q_a, scale_a, a, m, k);
  decodeSwizzled<Elements, Scales, BLOCK><<<(unsigned)((n * k + 255) / 256), 256>>>(q_b, scale_b, b, n, k);
  referenceGemm::launchTiledGemm<true>(a, b, c, m, n, k, TimesFactor{factor});
  cudaFree(a);
  cudaFree(b);
}
