// 1-D max pooling: pool-common/pool.cuh, one thread per output, its dilated window clipped to the input (padding is
// never the maximum).
#include "../../pool-common/pool.cuh"

extern "C" void solution(const float* input, int kernel_size, int stride, int padding, int dilation, float* output, size_t H) {
  pool::run<pool::Maximum, 1>(input, output, {H}, kernel_size, stride, padding, dilation);
}
