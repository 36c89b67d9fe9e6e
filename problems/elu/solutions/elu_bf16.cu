// ELU on bfloat16: 16-byte vector loads in a grid-stride loop, math in float (elu.cuh). alpha comes after the sizes, as
// in Tensara's signature.
#include "elu.cuh"

extern "C" void solution(const __nv_bfloat16* input, __nv_bfloat16* output, size_t n, size_t m, float alpha) {
  vectorized_map::launch(input, output, n * m, Elu{alpha});
}
