// Matrix times scalar on bfloat16: 16-byte vector loads in a grid-stride loop (matrix_scalar.cuh).
#include "matrix_scalar.cuh"

extern "C" void solution(const __nv_bfloat16* input_matrix, float scalar, __nv_bfloat16* output_matrix, size_t n) {
  matrixScalar(input_matrix, scalar, output_matrix, n);
}
