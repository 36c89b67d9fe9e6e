// ReLU for any element type, on the vectorized map of vectorized_map.cuh.
#pragma once
#include "vectorized_map.cuh"

struct Relu {
  __device__ float operator()(float x) const { return x > 0.0f ? x : 0.0f; }
};

template <typename T>
void relu(const T* input, T* output, size_t n, size_t m) {
  vectorized_map::launch(input, output, n * m, Relu{});
}
