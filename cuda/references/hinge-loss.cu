// Reference for hinge-loss: max(0, 1 − p·t) per element, in double (pairwise-map.cuh).
#include "pairwise-map.cuh"

struct Hinge {
  __device__ double operator()(double p, double t) const { return fmax(0.0, 1.0 - p * t); }
};

extern "C" void reference(const KB_T* predictions, const KB_T* targets, KB_T* output, size_t n) {
  launchPairwiseMapReference(predictions, targets, output, n, Hinge{});
}
