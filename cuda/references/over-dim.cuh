// The layout shared by the references that work over one dimension (softmax, sum-dim, max-dim, argmax): the
// row-major input is seen as [outer][size][inner] with size = shape[dim].
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
