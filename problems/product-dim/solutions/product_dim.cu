// Product over one dimension, in float: a warp per contiguous row when the reduced dimension is the last one,
// otherwise blocks of 32 adjacent columns × 8 threads that split each column. The order of the multiplications
// differs from a sequential product only by roundings, far inside Tensara's rtol 2e-2.
#include "../../reduction-common/reduction.cuh"

extern "C" void solution(const float* input, int dim, float* output, const size_t* shape, size_t ndim) {
  reduction::reduceOverDim<reduction::Prod>(input, output, reduction::sliceLayoutFromDevice(dim, shape, ndim));
}
