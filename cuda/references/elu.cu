// Reference for elu: x > 0 ? x : alpha · (e^x - 1), in double (unary-map.cuh); expm1 keeps e^x - 1 exact near 0.
// KB_T is the element type. alpha comes last, after the sizes, as in Tensara's signature.
#include "unary-map.cuh"

struct Elu {
  double alpha;
  __device__ double operator()(double x) const { return x > 0.0 ? x : alpha * expm1(x); }
};

extern "C" void reference(const KB_T* input, KB_T* output, size_t n, size_t m, float alpha) {
  launchUnaryMapReference(input, output, n * m, Elu{alpha});
}
