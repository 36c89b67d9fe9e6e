// Reference for matmul-swish-scaling: O = scale · swish(A·B), accumulated in double (tiled, see the header), swish
// and scaling applied in double before the one rounding.
#include "../../problems/gemm-common/reference_gemm.cuh"

extern "C" void reference(const KB_T* A, const KB_T* B, float scale, KB_T* output, size_t M, size_t N, size_t K) {
  referenceGemm::launchTiledGemm<false>(A, B, output, M, N, K, referenceGemm::SwishScaled{nullptr, (double)scale});
}
