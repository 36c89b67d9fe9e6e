// Mean and variance of long slices split into chunks, shared by the layer-norm and batch-norm examples: a block
// computes the count, mean and M2 (sum of squared deviations) of a chunk from sums shifted by the chunk's first
// element (no cancellation when the mean is far from 0), and chunk statistics merge with Chan et al.'s pairwise
// formula.
#pragma once
#include "reduction.cuh"

namespace moments {

// Sums of (x - shift) and (x - shift)^2 over a thread's elements.
struct ShiftedSums {
  struct State {
    float sum, squares;
  };
  __device__ static State merge(State a, State b) { return {a.sum + b.sum, a.squares + b.squares}; }
};

// Count, mean and M2 of a set of elements; merge is symmetric, so every lane of a warp merge agrees.
struct Moments {
  struct State {
    float count, mean, m2;
  };
  __device__ static State identity() { return {0.0f, 0.0f, 0.0f}; }
  __device__ static State merge(State a, State b) {
    float count = a.count + b.count;
    if (count == 0.0f) return a;
    float delta = b.mean - a.mean;
    return {count, (a.count * a.mean + b.count * b.mean) / count, a.m2 + b.m2 + delta * delta * (a.count * b.count / count)};
  }
};

// The moments of x[0, length), length ≥ 1, computed by the whole block (16-byte loads where aligned); every thread
// gets them.
__device__ inline Moments::State blockMoments(const float* x, size_t length) {
  float shift = x[0];
  ShiftedSums::State s = {0.0f, 0.0f};
  reduction::forEachOwned(x, length, threadIdx.x, blockDim.x, [&](float v, size_t) {
    float d = v - shift;
    s.sum += d;
    s.squares += d * d;
  });
  s = reduction::blockMerge<ShiftedSums>(s);
  float count = (float)length, offset = s.sum / count;
  return {count, shift + offset, s.squares - s.sum * offset};
}

// The merge of parts[0, n), computed by the whole block; every thread gets it.
__device__ inline Moments::State blockMergeOf(const Moments::State* parts, size_t n) {
  Moments::State m = Moments::identity();
  for (size_t k = threadIdx.x; k < n; k += blockDim.x) m = Moments::merge(m, parts[k]);
  return reduction::blockMerge<Moments>(m);
}

}  // namespace moments
