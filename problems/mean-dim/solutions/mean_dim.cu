// Mean over one dimension: the sum as in sum_dim.cu (a warp per contiguous row, or column blocks when the reduced
// dimension is not the last), divided by the slice's size when written.
#include "../../reduction-common/reduction.cuh"

extern "C" void solution(const float* input, int dim, float* output, const size_t* shape, size_t ndim) {
  reduction::reduceOverDim<reduction::Mean>(input, output, reduction::sliceLayoutFromDevice(dim, shape, ndim));
}
