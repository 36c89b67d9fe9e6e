// 2-D average pooling: pool-common/pool.cuh, one thread per output, warps along the rows, each window clipped to the
// input and scaled by 1/K².
#include "../../pool-common/pool.cuh"

extern "C" void solution(const float* input, int kernel_size, int stride, int padding, float* output, size_t H, size_t W) {
  pool::run<pool::Average, 2>(input, output, {H, W}, kernel_size, stride, padding, 1);
}
