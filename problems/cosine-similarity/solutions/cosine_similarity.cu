// 1 − cosine similarity per row pair, one block per row: 16-byte loads of both rows accumulate x·y, x·x and y·y
// per thread (pairwise.cuh), and one block merge gives the three sums to every thread.
#include "../../loss-common/pairwise.cuh"

constexpr float kEpsilon = 1e-8f;

// The three sums merged together, so a row needs one block merge rather than three.
struct Sums {
  float xy, xx, yy;
};

struct SumOfSums {
  using State = Sums;
  __device__ static State merge(State a, State b) { return {a.xy + b.xy, a.xx + b.xx, a.yy + b.yy}; }
};

__global__ void __launch_bounds__(pairwise::kThreads) cosineRows(const float* X, const float* Y, float* output, size_t d) {
  Sums s = {0.0f, 0.0f, 0.0f};
  pairwise::forEachPair(X + blockIdx.x * d, Y + blockIdx.x * d, d, threadIdx.x, blockDim.x, [&](float a, float b, size_t) {
    s.xy += a * b;
    s.xx += a * a;
    s.yy += b * b;
  });
  s = reduction::blockMerge<SumOfSums>(s);
  if (threadIdx.x == 0) output[blockIdx.x] = 1.0f - s.xy / (fmaxf(sqrtf(s.xx), kEpsilon) * fmaxf(sqrtf(s.yy), kEpsilon));
}

extern "C" void solution(const float* predictions, const float* targets, float* output, size_t n, size_t d) {
  cosineRows<<<(unsigned)n, pairwise::kThreads>>>(predictions, targets, output, d);
}
