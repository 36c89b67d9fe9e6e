// Reference for gemm-relu: C = ReLU(A·Wᵀ + b) with A B×N, W M×N, b of length M and C B×M, all row-major;
// accumulated in double (tiled, see the header), bias and ReLU applied in double before the one rounding.
#include "../../problems/gemm-common/reference_gemm.cuh"

struct BiasRelu {
  const KB_T* bias;
  __device__ double operator()(double acc, size_t /*row*/, size_t col) const {
    const double biased = acc + referenceGemm::toDouble(bias[col]);
    return biased > 0.0 ? biased : 0.0;
  }
};

extern "C" void reference(const KB_T* A, const KB_T* W, const KB_T* b, KB_T* C, size_t B, size_t N, size_t M) {
  // Rows of C are the B batch rows, columns the M output features; the reduction runs over the N inputs.
  referenceGemm::launchTiledGemm<true>(A, W, C, B, M, N, BiasRelu{b});
}
