// Swish (SiLU) for any element type: x times the sigmoid example's functor, on the vectorized map.
#pragma once
#include "../../sigmoid/solutions/sigmoid.cuh"

struct Swish {
  __device__ float operator()(float x) const { return x * Sigmoid{}(x); }
};
