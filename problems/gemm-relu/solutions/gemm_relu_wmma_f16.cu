// C = ReLU(A·Wᵀ + b) in float16: the family's tensor-core GEMM reading W as a transposed B (fp32 accumulation),
// with bias and ReLU applied in fp32 before the single rounding to float16.
#include "../../gemm-common/gemm_wmma.cuh"

extern "C" void solution(const __half* A, const __half* W, const __half* b, __half* C, size_t B, size_t N, size_t M) {
  gemm::gemmWmma<__half, gemm::TransposedB>(A, W, C, B, M, N, gemm::BiasRelu<__half>{b});
}
