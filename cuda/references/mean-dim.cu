// Reference for mean-dim: one thread per output element sums its slice in double and divides by its size.
// Layout and fold: over-dim.cuh.
#include "over-dim.cuh"

struct MeanFold {
  using State = double;
  __device__ static State start(double x) { return x; }
  __device__ static State step(State sum, double x, size_t) { return sum + x; }
  __device__ static KB_T finish(State sum, size_t size) { return (KB_T)(sum / (double)size); }
};

extern "C" void reference(const KB_T* input, int dim, KB_T* output, const size_t* shape, size_t ndim) {
  foldOverDim<MeanFold>(input, dim, output, shape, ndim);
}
