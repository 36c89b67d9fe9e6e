// 3-D max pooling: pool-common/pool.cuh, one thread per output, warps along the innermost dimension D, each dilated
// window clipped to the input (padding is never the maximum).
#include "../../pool-common/pool.cuh"

extern "C" void solution(const float* input, int kernel_size, int stride, int padding, int dilation, float* output, size_t H, size_t W, size_t D) {
  pool::run<pool::Maximum, 3>(input, output, {H, W, D}, kernel_size, stride, padding, dilation);
}
