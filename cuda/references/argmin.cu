// Reference for argmin: one thread per output element scans its slice from index 0 and keeps the first index of
// the minimum (a later equal value does not replace it). Layout and fold: over-dim.cuh.
#include "over-dim.cuh"

struct ArgMinFold {
  struct State {
    double value;
    int index;
  };
  __device__ static State start(double x) { return {x, 0}; }
  __device__ static State step(State best, double x, size_t k) { return x < best.value ? State{x, (int)k} : best; }
  __device__ static int finish(State best, size_t) { return best.index; }
};

extern "C" void reference(const KB_T* input, int dim, int* output, const int* shape, int ndim) {
  foldOverDim<ArgMinFold>(input, dim, output, shape, ndim);
}
