// Leaky ReLU on bfloat16: 16-byte vector loads in a grid-stride loop (leaky_relu.cuh).
#include "leaky_relu.cuh"

extern "C" void solution(const __nv_bfloat16* input, float alpha, __nv_bfloat16* output, size_t n, size_t m) {
  leakyRelu(input, alpha, output, n, m);
}
