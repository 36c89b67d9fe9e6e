// Reference for hard-sigmoid: clamp((x + 3) / 6, 0, 1), PyTorch's hardsigmoid as in Tensara's reference, in double
// (unary-map.cuh). KB_T is the element type.
#include "unary-map.cuh"

struct HardSigmoid {
  __device__ double operator()(double x) const { return fmin(fmax(x + 3.0, 0.0), 6.0) / 6.0; }
};

extern "C" void reference(const KB_T* input, KB_T* output, size_t n, size_t m) {
  launchUnaryMapReference(input, output, n * m, HardSigmoid{});
}
