// Reference for max-pool-3d: pool.cuh, the largest of a dilated K×K×K window (dilated along all three dimensions).
#include "pool.cuh"

extern "C" void reference(const KB_T* input, int kernel_size, int stride, int padding, int dilation, KB_T* output, size_t H, size_t W, size_t D) {
  launchPoolReference<PoolKind::Max>(input, output, poolShape(3, H, W, D, kernel_size, stride, padding, dilation));
}
