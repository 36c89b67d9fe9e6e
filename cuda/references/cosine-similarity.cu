// Reference for cosine-similarity: one warp per row pair sums x·y, x·x and y·y in double, then
// 1 − x·y / (max(‖x‖, 1e-8)·max(‖y‖, 1e-8)).
#include <cuda_runtime.h>

static const unsigned kWarpsPerBlock = 8;

__device__ double warpSum(double v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void cosineReference(const KB_T* predictions, const KB_T* targets, KB_T* output, size_t n, size_t d) {
  size_t row = blockIdx.x * (size_t)kWarpsPerBlock + threadIdx.x / 32;
  if (row >= n) return;  // the whole warp agrees
  const KB_T* x = predictions + row * d;
  const KB_T* y = targets + row * d;
  double xy = 0.0, xx = 0.0, yy = 0.0;
  for (size_t j = threadIdx.x % 32; j < d; j += 32) {
    double a = (double)(float)x[j], b = (double)(float)y[j];
    xy += a * b;
    xx += a * a;
    yy += b * b;
  }
  xy = warpSum(xy);
  xx = warpSum(xx);
  yy = warpSum(yy);
  if (threadIdx.x % 32 == 0) output[row] = (KB_T)(1.0 - xy / (fmax(sqrt(xx), 1e-8) * fmax(sqrt(yy), 1e-8)));
}

extern "C" void reference(const KB_T* predictions, const KB_T* targets, KB_T* output, size_t n, size_t d) {
  cosineReference<<<(unsigned)((n + kWarpsPerBlock - 1) / kWarpsPerBlock), kWarpsPerBlock * 32>>>(predictions, targets, output, n, d);
}
