// Reference for matmul-swish: out = s · swish(x·Wᵀ + bias), accumulated in double (tiled, see the header), bias,
// swish and scaling applied in double before the one rounding.
#include "../../problems/gemm-common/reference_gemm.cuh"

extern "C" void reference(const KB_T* input_matrix, const KB_T* weight_matrix, const KB_T* bias, float scaling_factor, KB_T* output,
                          size_t batch_size, size_t in_features, size_t out_features) {
  referenceGemm::launchTiledGemm<true>(input_matrix, weight_matrix, output, batch_size, out_features, in_features,
                                       referenceGemm::SwishScaled{bias, (double)scaling_factor});
}
