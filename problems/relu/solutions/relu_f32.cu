// ReLU on float32: 16-byte vector loads in a grid-stride loop (relu.cuh, vectorized_map.cuh).
#include "relu.cuh"

extern "C" void solution(const float* input, float* output, size_t n, size_t m) { relu(input, output, n, m); }
