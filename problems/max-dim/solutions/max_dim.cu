// Max over one dimension: a warp per contiguous row (16-byte loads, shuffle merge) when the reduced dimension is
// the last one, otherwise blocks of 32 adjacent columns × 8 threads that split each column (coalesced loads).
#include "../../reduction-common/reduction.cuh"

extern "C" void solution(const float* input, int dim, float* output, size_t shape0, size_t shape1, size_t shape2,
                         size_t shape3, size_t ndim) {
  const size_t shape[4] = {shape0, shape1, shape2, shape3};
  reduction::reduceOverDim<reduction::Max>(input, output, reduction::sliceLayout(dim, shape, ndim));
}
