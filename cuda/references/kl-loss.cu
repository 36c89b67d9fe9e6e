// Reference for kl-loss: t·(ln t − ln p) per element with both clamped below at 1e-10, 0 where t ≤ 0, in double
// (pairwise-map.cuh). The clamp is applied to the float inputs, as Tensara's reference clamps float tensors.
#include "pairwise-map.cuh"

struct KlDivergence {
  __device__ double operator()(double p, double t) const {
    const double eps = (double)1e-10f;
    if (!(t > 0.0)) return 0.0;
    double ps = fmax(p, eps), ts = fmax(t, eps);
    return ts * (log(ts) - log(ps));
  }
};

extern "C" void reference(const KB_T* predictions, const KB_T* targets, KB_T* output, size_t n) {
  launchPairwiseMapReference(predictions, targets, output, n, KlDivergence{});
}
