// 2-D max pooling: pool-common/pool.cuh, one thread per output, warps along the rows, each dilated window clipped to
// the input (padding is never the maximum).
#include "../../pool-common/pool.cuh"

extern "C" void solution(const float* input, int kernel_size, int stride, int padding, int dilation, float* output, size_t H, size_t W) {
  pool::run<pool::Maximum, 2>(input, output, {H, W}, kernel_size, stride, padding, dilation);
}
