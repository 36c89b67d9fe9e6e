// Reference for matmul-3d: C = A·B with A N×M×K read as an (N·M)×K matrix and B K×L, accumulated in double (tiled,
// see the header).
#include "../../problems/gemm-common/reference_gemm.cuh"

extern "C" void reference(const KB_T* A, const KB_T* B, KB_T* C, size_t n, size_t m, size_t k, size_t l) {
  referenceGemm::launchTiledGemm<false>(A, B, C, n * m, l, k);
}
