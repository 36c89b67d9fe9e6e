// ELU on float16: 16-byte vector loads in a grid-stride loop, math in float (elu.cuh). alpha comes after the sizes, as
// in Tensara's signature.
#include "elu.cuh"

extern "C" void solution(const __half* input, __half* output, size_t n, size_t m, float alpha) {
  vectorized_map::launch(input, output, n * m, Elu{alpha});
}
