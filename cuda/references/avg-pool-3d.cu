// Reference for avg-pool-3d: pool.cuh, a K×K×K window summed in double and divided by K³.
#include "pool.cuh"

extern "C" void reference(const KB_T* input, int kernel_size, int stride, int padding, KB_T* output, size_t H, size_t W, size_t D) {
  launchPoolReference<PoolKind::Average>(input, output, poolShape(3, H, W, D, kernel_size, stride, padding, 1));
}
