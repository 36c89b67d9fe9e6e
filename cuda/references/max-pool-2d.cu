// Reference for max-pool-2d: pool.cuh, the largest of a dilated K×K window.
#include "pool.cuh"

extern "C" void reference(const KB_T* input, int kernel_size, int stride, int padding, int dilation, KB_T* output, size_t H, size_t W) {
  launchPoolReference<PoolKind::Max>(input, output, poolShape(2, H, W, 1, kernel_size, stride, padding, dilation));
}
