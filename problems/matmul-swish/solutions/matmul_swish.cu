// out = s · swish(x·Wᵀ + bias) in fp32: the GEMM family's tiled kernel reading W as a transposed B, with bias, swish
// and scaling fused into the store. Rows of out are the batch, columns the out_features; the reduction runs over
// in_features.
#include "../../gemm-common/sgemm_tiled.cuh"

extern "C" void solution(const float* input_matrix, const float* weight_matrix, const float* bias, float scaling_factor, float* output,
                         size_t batch_size, size_t in_features, size_t out_features) {
  gemm::sgemmTiled<gemm::TransposedB>(input_matrix, weight_matrix, output, batch_size, out_features, in_features,
                                      gemm::SwishScaled{bias, scaling_factor});
}
