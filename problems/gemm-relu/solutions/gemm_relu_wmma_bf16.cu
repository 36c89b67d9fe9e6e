// C = ReLU(A·Wᵀ + b) in bfloat16: the family's tensor-core GEMM reading W as a transposed B (fp32 accumulation),
// with bias and ReLU applied in fp32 before the single rounding to bfloat16.
#include "../../gemm-common/gemm_wmma.cuh"

extern "C" void solution(const __nv_bfloat16* A, const __nv_bfloat16* W, const __nv_bfloat16* b, __nv_bfloat16* C,
                         size_t B, size_t N, size_t M) {
  gemm::gemmWmma<__nv_bfloat16, gemm::TransposedB>(A, W, C, B, M, N, gemm::BiasRelu<__nv_bfloat16>{b});
}
