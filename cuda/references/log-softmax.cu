// Reference for log-softmax: one warp per row, in double: the row's maximum, then the sum of exp(x - max), then
// x - (max + ln sum) for each element.
#include <cuda_runtime.h>
#include <math.h>

static const unsigned kWarpsPerBlock = 8;

__device__ double warpMax(double v) {
  for (int offset = 16; offset > 0; offset /= 2) v = fmax(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

__device__ double warpTotal(double v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void logSoftmaxReference(const KB_T* input, KB_T* output, size_t M, size_t N) {
  size_t row = blockIdx.x * (size_t)kWarpsPerBlock + threadIdx.x / 32;
  if (row >= M) return;  // the whole warp agrees
  const KB_T* x = input + row * N;
  double max = -INFINITY;
  for (size_t j = threadIdx.x % 32; j < N; j += 32) max = fmax(max, (double)(float)x[j]);
  max = warpMax(max);  // every lane gets it (xor butterfly)
  double sum = 0.0;
  for (size_t j = threadIdx.x % 32; j < N; j += 32) sum += exp((double)(float)x[j] - max);
  double shift = max + log(warpTotal(sum));
  for (size_t j = threadIdx.x % 32; j < N; j += 32) output[row * N + j] = (KB_T)((double)(float)x[j] - shift);
}

extern "C" void reference(const KB_T* input, KB_T* output, size_t M, size_t N) {
  logSoftmaxReference<<<(unsigned)((M + kWarpsPerBlock - 1) / kWarpsPerBlock), kWarpsPerBlock * 32>>>(input, output, M, N);
}
