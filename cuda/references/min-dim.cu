// Reference for min-dim: one thread per output element scans its slice. Layout and fold: over-dim.cuh.
#include "over-dim.cuh"

struct MinFold {
  using State = double;
  __device__ static State start(double x) { return x; }
  __device__ static State step(State best, double x, size_t) { return fmin(best, x); }
  __device__ static KB_T finish(State best, size_t) { return (KB_T)best; }
};

extern "C" void reference(const KB_T* input, int dim, KB_T* output, const size_t* shape, size_t ndim) {
  foldOverDim<MinFold>(input, dim, output, shape, ndim);
}
