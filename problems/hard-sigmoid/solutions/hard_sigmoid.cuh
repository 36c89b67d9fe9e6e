// Hard sigmoid for any element type, on the vectorized map shared with the relu examples: clamp((x + 3) / 6, 0, 1)
// as PyTorch's hardsigmoid computes it.
#pragma once
#include "../../relu/solutions/vectorized_map.cuh"

struct HardSigmoid {
  __device__ float operator()(float x) const { return fminf(fmaxf(x + 3.0f, 0.0f), 6.0f) / 6.0f; }
};
