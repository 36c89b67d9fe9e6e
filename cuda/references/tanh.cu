// Reference for tanh: tanh(x), in double (unary-map.cuh). KB_T is the element type.
#include "unary-map.cuh"

struct Tanh {
  __device__ double operator()(double x) const { return tanh(x); }
};

extern "C" void reference(const KB_T* input, KB_T* output, size_t n, size_t m) {
  launchUnaryMapReference(input, output, n * m, Tanh{});
}
