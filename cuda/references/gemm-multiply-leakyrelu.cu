// Reference for gemm-multiply-leakyrelu: O = LeakyReLU((A·B) ⊙ C, alpha), accumulated in double (tiled, see the
// header), the multiply and LeakyReLU applied in double before the one rounding.
#include "../../problems/gemm-common/reference_gemm.cuh"

struct MultiplyLeakyRelu {
  const KB_T* factor;  // C, M×N row-major
  size_t n;
  double alpha;
  __device__ double operator()(double acc, size_t row, size_t col) const {
    const double x = acc * referenceGemm::toDouble(factor[row * n + col]);
    return x >= 0.0 ? x : alpha * x;
  }
};

extern "C" void reference(const KB_T* A, const KB_T* B, const KB_T* C, float alpha, KB_T* output, size_t M, size_t N, size_t K) {
  referenceGemm::launchTiledGemm<false>(A, B, output, M, N, K, MultiplyLeakyRelu{C, N, (double)alpha});
}
