// Sigmoid for any element type, on the vectorized map shared with the relu examples. expf (not __expf) keeps the
// float math a few ulps from exact for any input, far inside every tolerance.
#pragma once
#include "../../relu/solutions/vectorized_map.cuh"

struct Sigmoid {
  __device__ float operator()(float x) const { return 1.0f / (1.0f + expf(-x)); }
};
