// ELU on float32: 16-byte vector loads in a grid-stride loop, math in float (elu.cuh). alpha comes after the sizes, as
// in Tensara's signature.
#include "elu.cuh"

extern "C" void solution(const float* input, float* output, size_t n, size_t m, float alpha) {
  vectorized_map::launch(input, output, n * m, Elu{alpha});
}
