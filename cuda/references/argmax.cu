// Reference for argmax: one thread per output element scans its slice from index 0 and keeps the first index of
// the maximum (a later equal value does not replace it). Layout: over-dim.cuh.
#include "over-dim.cuh"

__global__ void argmaxReference(const KB_T* input, int* output, size_t outer, size_t size, size_t inner) {
  size_t out = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (out >= outer * inner) return;
  const KB_T* slice = input + (out / inner) * size * inner + out % inner;
  double best = (double)(float)slice[0];
  int bestIndex = 0;
  for (size_t k = 1; k < size; ++k) {
    double v = (double)(float)slice[k * inner];
    if (v > best) {
      best = v;
      bestIndex = (int)k;
    }
  }
  output[out] = bestIndex;
}

extern "C" void reference(const KB_T* input, int dim, int* output, const int* shape, int ndim) {
  const OverDim layout = overDim(dim, shape, ndim);
  argmaxReference<<<layout.blocks(256), 256>>>(input, output, layout.outer, layout.size, layout.inner);
}
