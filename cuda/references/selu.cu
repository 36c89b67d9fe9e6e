// Reference for selu: scale · (x > 0 ? x : alpha · (e^x - 1)) with PyTorch's constants (Tensara's reference is
// torch selu), in double (unary-map.cuh); expm1 keeps e^x - 1 exact near 0. KB_T is the element type.
#include "unary-map.cuh"

struct Selu {
  __device__ double operator()(double x) const {
    const double alpha = 1.6732632423543772848170429916717, scale = 1.0507009873554804934193349852946;
    return scale * (x > 0.0 ? x : alpha * expm1(x));
  }
};

extern "C" void reference(const KB_T* input, KB_T* output, size_t n, size_t m) {
  launchUnaryMapReference(input, output, n * m, Selu{});
}
