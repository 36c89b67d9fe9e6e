// The layout shared by the references that work over one dimension (softmax, sum-dim, mean-dim, max-dim, min-dim,
// product-dim, argmax, argmin): the row-major input is seen as [outer][size][inner] with size = shape[dim].
// One thread handles one slice (outer × inner of them).
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>

struct OverDim {
  size_t outer, size, inner;
  size_t slices() const { return outer * inner; }
  unsigned blocks(unsigned threads) const { return (unsigned)((slices() + threads - 1) / threads); }
};

constexpr int kMaxDims = 8;

// S is size_t, or int for argmax. The shape is in device memory or in page-locked host memory, depending on the
// problem: cudaMemcpyDefault copies from either.
template <typename S>
OverDim overDim(int dim, const S* shapeArray, S ndim) {
  S shape[kMaxDims] = {};
  cudaMemcpy(shape, shapeArray, (size_t)(ndim < kMaxDims ? ndim : kMaxDims) * sizeof(S), cudaMemcpyDefault);
  OverDim layout = {1, (size_t)shape[dim], 1};
  for (int d = 0; d < (int)ndim; ++d) {
    if (d < dim) layout.outer *= (size_t)shape[d];
    if (d > dim) layout.inner *= (size_t)shape[d];
  }
  return layout;
}

// A reference that folds each slice in order, one thread per output element: Fold::State start(x0), then
// step(state, x_k, k) for k = 1 … size - 1, and the output finish(state, size). Elements are read as double.
template <class Fold, typename T, typename Out>
__global__ void foldSlices(const T* input, Out* output, OverDim layout) {
  size_t out = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (out >= layout.outer * layout.inner) return;
  const T* slice = input + (out / layout.inner) * layout.size * layout.inner + out % layout.inner;
  typename Fold::State state = Fold::start((double)(float)slice[0]);
  for (size_t k = 1; k < layout.size; ++k) state = Fold::step(state, (double)(float)slice[k * layout.inner], k);
  output[out] = Fold::finish(state, layout.size);
}

template <class Fold, typename T, typename Out, typename S>
void foldOverDim(const T* input, int dim, Out* output, const S* shape, S ndim) {
  const OverDim layout = overDim(dim, shape, ndim);
  foldSlices<Fold><<<layout.blocks(256), 256>>>(input, output, layout);
}
