// Binary thresholding for any element type, on the vectorized map shared with the relu examples: 255 above the
// threshold, 0 at or below it. The pixel is widened to float exactly, so the comparison is exact in every dtype.
#pragma once
#include "../../relu/solutions/vectorized_map.cuh"

struct Threshold {
  float value;
  __device__ float operator()(float x) const { return x > value ? 255.0f : 0.0f; }
};
