// Tensor-core GEMM for bfloat16 (WMMA, fp32 accumulation), shared with square-matmul and gemm-relu.
#include "../../gemm-common/gemm_wmma.cuh"

extern "C" void solution(const __nv_bfloat16* input_a, const __nv_bfloat16* input_b, __nv_bfloat16* output_c, size_t m,
                         size_t n, size_t k) {
  gemm::gemmWmma<__nv_bfloat16, gemm::RowMajorB>(input_a, input_b, output_c, m, n, k);
}
