// Reference for soft-plus: ln(1 + e^x), or x itself above 20 (PyTorch's softplus threshold, which Tensara's
// reference uses), in double (unary-map.cuh). KB_T is the element type.
#include "unary-map.cuh"

struct SoftPlus {
  __device__ double operator()(double x) const { return x > 20.0 ? x : log1p(exp(x)); }
};

extern "C" void reference(const KB_T* input, KB_T* output, size_t n, size_t m) {
  launchUnaryMapReference(input, output, n * m, SoftPlus{});
}
