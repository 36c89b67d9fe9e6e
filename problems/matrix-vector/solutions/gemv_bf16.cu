// bfloat16 matrix-vector product: a warp per row, 16-byte loads, fp32 accumulation (see gemv_warp.cuh).
#include "gemv_warp.cuh"

extern "C" void solution(const __nv_bfloat16* input_a, const __nv_bfloat16* input_b, __nv_bfloat16* output_c, size_t m,
                         size_t k) {
  gemv::warpPerRowGemv(input_a, input_b, output_c, m, k);
}
