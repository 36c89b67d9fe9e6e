// Reference for avg-pool-2d: pool.cuh, a K×K window summed in double and divided by K².
#include "pool.cuh"

extern "C" void reference(const KB_T* input, int kernel_size, int stride, int padding, KB_T* output, size_t H, size_t W) {
  launchPoolReference<PoolKind::Average>(input, output, poolShape(2, H, W, 1, kernel_size, stride, padding, 1));
}
