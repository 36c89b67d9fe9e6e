// Leaky ReLU for any element type, on the vectorized map shared with the relu examples.
#pragma once
#include "../../relu/solutions/vectorized_map.cuh"

struct LeakyRelu {
  float alpha;
  __device__ float operator()(float x) const { return x > 0.0f ? x : alpha * x; }
};

template <typename T>
void leakyRelu(const T* input, float alpha, T* output, size_t n, size_t m) {
  vectorized_map::launch(input, output, n * m, LeakyRelu{alpha});
}
