// Square bfloat16 product through the family's tensor-core GEMM (WMMA, fp32 accumulation) with m = n = k.
#include "../../gemm-common/gemm_wmma.cuh"

extern "C" void solution(const __nv_bfloat16* input_a, const __nv_bfloat16* input_b, __nv_bfloat16* output_c, size_t n) {
  gemm::gemmWmma<__nv_bfloat16, gemm::RowMajorB>(input_a, input_b, output_c, n, n, n);
}
