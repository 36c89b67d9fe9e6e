// NVFP4 GEMM, C = A·Bᵀ / (sf_g_a·sf_g_b) in half, for a GPU without FP4 tensor cores: the tiled fp32 GEMM of
// block_scaled_gemm.cuh, decoding E2M1 elements × their block's E4M3 scale into shared memory, two scale blocks per
// 32-deep slice of k; the global factors are applied once, to the sums.
#include "../../mx-common/block_scaled_gemm.cuh"

extern "C" void solution(const uint8_t* q_a, const uint8_t* scale_a, float sf_g_a, const uint8_t* q_b,
                         const uint8_t* scale_b, float sf_g_b, __half* c, size_t m, size_t n, size_t k) {
  bsgemm::launch<bsgemm::Nvfp4>(q_a, scale_a, q_b, scale_b, bsgemm::ScaledHalf{(1.0f / sf_g_a) * (1.0f / sf_g_b)}, c, m, n, k);
}
