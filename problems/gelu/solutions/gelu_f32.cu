// GELU (tanh form) on float32: 16-byte vector loads in a grid-stride loop, math in float (gelu.cuh).
#include "gelu.cuh"

extern "C" void solution(const float* input, float* output, size_t n, size_t m) { gelu(input, output, n, m); }
