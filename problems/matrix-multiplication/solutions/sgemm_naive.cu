// Naive sgemm: one thread per output element, every operand read from global memory.
#include <cuda_runtime.h>

__global__ void sgemmNaive(const float* a, const float* b, float* c, size_t m, size_t n, size_t k) {
  size_t row = blockIdx.y * (size_t)blockDim.y + threadIdx.y;
  size_t col = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  for (size_t i = 0; i < k; ++i) sum += a[row * k + i] * b[i * n + col];
  c[row * n + col] = sum;
}

extern "C" void solution(const float* input_a, const float* input_b, float* output_c, size_t m, size_t n, size_t k) {
  dim3 block(16, 16);
  dim3 grid((unsigned)((n + 15) / 16), (unsigned)((m + 15) / 16));
  sgemmNaive<<<grid, block>>>(input_a, input_b, output_c, m, n, k);
}
