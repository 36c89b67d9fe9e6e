// Mean squared error: a sum per block over 16-byte loads of both inputs, then one block adds the sums and divides
// (pairwise.cuh). The shape is in host memory; only the element count matters.
#include "../../loss-common/pairwise.cuh"

struct SquaredError {
  __device__ float operator()(float p, float t) const {
    float d = p - t;
    return d * d;
  }
};

extern "C" void solution(const float* predictions, const float* targets, float* output, const size_t* shape, size_t ndim) {
  size_t count = 1;
  for (size_t d = 0; d < ndim; ++d) count *= shape[d];
  pairwise::mean(predictions, targets, output, count, SquaredError{});
}
