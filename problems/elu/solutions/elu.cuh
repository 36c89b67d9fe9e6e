// ELU for any element type, on the vectorized map shared with the relu examples. expm1f, not expf(x) - 1, keeps
// the negative side accurate near 0, where the subtraction would cancel.
#pragma once
#include "../../relu/solutions/vectorized_map.cuh"

struct Elu {
  float alpha;
  __device__ float operator()(float x) const { return x > 0.0f ? x : alpha * expm1f(x); }
};
