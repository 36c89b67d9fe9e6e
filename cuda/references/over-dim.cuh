// The layout shared by the references that work over one dimension (softmax, sum-dim, max-dim, argmax): the
// row-major input is seen as [outer][size][inner] with size = shape[dim]; shape entries past ndim are ignored.
// One thread handles one slice (outer × inner of them).
#pragma once
#include <stddef.h>

struct OverDim {
  size_t outer, size, inner;
  size_t slices() const { return outer * inner; }
  unsigned blocks(unsigned threads) const { return (unsigned)((slices() + threads - 1) / threads); }
};

// S is size_t, or int for argmax, whose Tensara shape array is int.
template <typename S>
OverDim overDim(int dim, S shape0, S shape1, S shape2, S shape3, S ndim) {
  const size_t shape[4] = {(size_t)shape0, (size_t)shape1, (size_t)shape2, (size_t)shape3};
  OverDim layout = {1, shape[dim], 1};
  for (size_t d = 0; d < (size_t)ndim; ++d) {
    if (d < (size_t)dim) layout.outer *= shape[d];
    if (d > (size_t)dim) layout.inner *= shape[d];
  }
  return layout;
}
