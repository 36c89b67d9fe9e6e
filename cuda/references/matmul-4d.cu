// Reference for matmul-4d: C = A·B with A b×i×j×l read as a (b·i·j)×l matrix and B l×k, accumulated in double
// (tiled, see the header).
#include "../../problems/gemm-common/reference_gemm.cuh"

extern "C" void reference(const KB_T* A, const KB_T* B, KB_T* C, size_t b, size_t i, size_t j, size_t l, size_t k) {
  referenceGemm::launchTiledGemm<false>(A, B, C, b * i * j, k, l);
}
