// Sum over one dimension: a warp per contiguous row (16-byte loads, shuffle merge) when the reduced dimension is
// the last one, otherwise blocks of 32 adjacent columns × 8 threads that split each column (coalesced loads).
#include "../../reduction-common/reduction.cuh"

extern "C" void solution(const float* input, int dim, float* output, const size_t* shape, size_t ndim) {
  reduction::reduceOverDim<reduction::Sum>(input, output, reduction::sliceLayoutFromDevice(dim, shape, ndim));
}
