// Tensor-core GEMM for float16 (WMMA, fp32 accumulation), shared with square-matmul and gemm-relu.
#include "../../gemm-common/gemm_wmma.cuh"

extern "C" void solution(const __half* input_a, const __half* input_b, __half* output_c, size_t m, size_t n, size_t k) {
  gemm::gemmWmma<__half, gemm::RowMajorB>(input_a, input_b, output_c, m, n, k);
}
