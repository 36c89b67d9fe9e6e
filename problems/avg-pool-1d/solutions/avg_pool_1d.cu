// 1-D average pooling: pool-common/pool.cuh, one thread per output, its window clipped to the input and scaled by 1/K.
#include "../../pool-common/pool.cuh"

extern "C" void solution(const float* input, int kernel_size, int stride, int padding, float* output, size_t H) {
  pool::run<pool::Average, 1>(input, output, {H}, kernel_size, stride, padding, 1);
}
