// Softplus for any element type, on the vectorized map shared with the relu examples. Above 20 it returns x, as
// PyTorch's softplus does: ln(1 + e^x) differs from x by under 2^-28 there, and expf would overflow past 88.
#pragma once
#include "../../relu/solutions/vectorized_map.cuh"

struct SoftPlus {
  __device__ float operator()(float x) const { return x > 20.0f ? x : log1pf(expf(x)); }
};
