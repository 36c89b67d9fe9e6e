// Matrix times scalar on float32: 16-byte vector loads in a grid-stride loop (matrix_scalar.cuh).
#include "matrix_scalar.cuh"

extern "C" void solution(const float* input_matrix, float scalar, float* output_matrix, size_t n) {
  matrixScalar(input_matrix, scalar, output_matrix, n);
}
