// Reference for sum-dim: one thread per output element sums its slice in double. Layout: over-dim.cuh.
#include "over-dim.cuh"

__global__ void sumDimReference(const KB_T* input, KB_T* output, size_t outer, size_t size, size_t inner) {
  size_t out = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (out >= outer * inner) return;
  const KB_T* slice = input + (out / inner) * size * inner + out % inner;
  double sum = 0.0;
  for (size_t k = 0; k < size; ++k) sum += (double)(float)slice[k * inner];
  output[out] = (KB_T)sum;
}

extern "C" void reference(const KB_T* input, int dim, KB_T* output, const size_t* shape, size_t ndim) {
  const OverDim layout = overDim(dim, shape, ndim);
  sumDimReference<<<layout.blocks(256), 256>>>(input, output, layout.outer, layout.size, layout.inner);
}
