// MXFP8 GEMM, C = A·Bᵀ, for a GPU without MX tensor cores: the tiled fp32 GEMM of block_scaled_gemm.cuh, decoding E4M3
// elements × E8M0 scales into shared memory, one scale block per 32-deep slice of k.
#include "../../mx-common/block_scaled_gemm.cuh"

extern "C" void solution(const uint8_t* q_a, const uint8_t* scale_a, const uint8_t* q_b, const uint8_t* scale_b, float* c,
                         size_t m, size_t n, size_t k) {
  bsgemm::launch<bsgemm::Mxfp8>(q_a, scale_a, q_b, scale_b, bsgemm::AsFloat{}, c, m, n, k);
}
