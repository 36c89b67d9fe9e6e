// Argmin over one dimension (first index of the minimum): a warp per contiguous row when the reduced dimension is
// the last one, otherwise blocks of 32 adjacent columns × 8 threads that split each column. Partial results carry
// (value, index) and ties go to the smaller index, so the merge order cannot change the answer.
#include "../../reduction-common/reduction.cuh"

extern "C" void solution(const float* input, int dim, int* output, const int* shape, int ndim) {
  reduction::reduceOverDim<reduction::ArgMin>(input, output, reduction::sliceLayout(dim, shape, ndim));
}
