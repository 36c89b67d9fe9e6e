// GELU (tanh form) on float16: 16-byte vector loads in a grid-stride loop, math in float (gelu.cuh).
#include "gelu.cuh"

extern "C" void solution(const __half* input, __half* output, size_t n, size_t m) { gelu(input, output, n, m); }
