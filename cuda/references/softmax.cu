// Reference for softmax: one thread per slice, in double: the slice's maximum, then the sum of exp(x - max), then
// exp(x - max) / sum for each element. Layout: over-dim.cuh.
#include "over-dim.cuh"

__global__ void softmaxReference(const KB_T* input, KB_T* output, size_t outer, size_t size, size_t inner) {
  size_t slice = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (slice >= outer * inner) return;
  size_t first = (slice / inner) * size * inner + slice % inner;
  const KB_T* x = input + first;
  double max = (double)(float)x[0];
  for (size_t k = 1; k < size; ++k) max = fmax(max, (double)(float)x[k * inner]);
  double sum = 0.0;
  for (size_t k = 0; k < size; ++k) sum += exp((double)(float)x[k * inner] - max);
  for (size_t k = 0; k < size; ++k) output[first + k * inner] = (KB_T)(exp((double)(float)x[k * inner] - max) / sum);
}

extern "C" void reference(const KB_T* input, int dim, KB_T* output, const size_t* shape, size_t ndim) {
  const OverDim layout = overDim(dim, shape, ndim);
  softmaxReference<<<layout.blocks(256), 256>>>(input, output, layout.outer, layout.size, layout.inner);
}
