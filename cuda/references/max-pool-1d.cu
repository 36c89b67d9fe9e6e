// Reference for max-pool-1d: pool.cuh, the largest of a dilated K-wide window.
#include "pool.cuh"

extern "C" void reference(const KB_T* input, int kernel_size, int stride, int padding, int dilation, KB_T* output, size_t H) {
  launchPoolReference<PoolKind::Max>(input, output, poolShape(1, H, 1, 1, kernel_size, stride, padding, dilation));
}
