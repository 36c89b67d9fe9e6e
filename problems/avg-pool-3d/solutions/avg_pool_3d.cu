// 3-D average pooling: pool-common/pool.cuh, one thread per output, warps along the innermost dimension D, each
// window clipped to the input and scaled by 1/K³.
#include "../../pool-common/pool.cuh"

extern "C" void solution(const float* input, int kernel_size, int stride, int padding, float* output, size_t H, size_t W, size_t D) {
  pool::run<pool::Average, 3>(input, output, {H, W, D}, kernel_size, stride, padding, 1);
}
