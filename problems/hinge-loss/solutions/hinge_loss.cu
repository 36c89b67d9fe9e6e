// Hinge loss per element: 16-byte loads of both inputs in a grid-stride loop (pairwise.cuh).
#include "../../loss-common/pairwise.cuh"

struct Hinge {
  __device__ float operator()(float p, float t) const { return fmaxf(0.0f, 1.0f - p * t); }
};

extern "C" void solution(const float* predictions, const float* targets, float* output, size_t n) {
  pairwise::map(predictions, targets, output, n, Hinge{});
}
