// C = ReLU(A·Wᵀ + b) in fp32: the family's tiled GEMM reading W as a transposed B, with bias and ReLU fused into
// the store. Rows of C are the B batch rows, columns the M output features, and the reduction runs over N.
#include "../../gemm-common/sgemm_tiled.cuh"

extern "C" void solution(const float* A, const float* W, const float* b, float* C, size_t B, size_t N, size_t M) {
  gemm::sgemmTiled<gemm::TransposedB>(A, W, C, B, M, N, gemm::BiasRelu<float>{b});
}
