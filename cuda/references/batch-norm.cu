// Reference for batch-norm, PyTorch's BatchNorm2d without affine parameters or running statistics: channel f of a
// B×F×D1×D2 tensor is normalised with the mean and biased variance of its B·D1·D2 elements, eps = 1e-5, two-pass
// in double: sum(x) gives the mean, then sum((x - mean)²) the variance, each accumulated into the channel's total
// with one double atomicAdd per thread; then one thread per element writes (x - mean) / sqrt(var + eps).
#include <cuda_runtime.h>
#include <math.h>

static const double kEpsilon = 1e-5;
static const unsigned kThreads = 256;
static const unsigned kBlocksPerChannel = 64;

// sums[f] += x over channel f, or (x - mean)² when the channel totals of x are given (mean = total / (B·S)).
// Element k of channel f (k over b, then over the S = D1·D2 positions) is X[(b·F + f)·S + k % S], b = k / S.
__global__ void channelSumsReference(const KB_T* X, size_t B, size_t F, size_t S, const double* totals, double* sums) {
  size_t f = blockIdx.y;
  double mean = totals ? totals[f] / (double)(B * S) : 0.0;
  double acc = 0.0;
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < B * S; k += (size_t)gridDim.x * blockDim.x) {
    double x = (double)(float)X[((k / S) * F + f) * S + k % S];
    acc += totals ? (x - mean) * (x - mean) : x;
  }
  atomicAdd(&sums[f], acc);
}

__global__ void normalizeReference(const KB_T* X, KB_T* Y, size_t B, size_t F, size_t S, const double* totals, const double* squares) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= B * F * S) return;
  size_t f = (i / S) % F;
  double count = (double)(B * S);
  Y[i] = (KB_T)(((double)(float)X[i] - totals[f] / count) / sqrt(squares[f] / count + kEpsilon));
}

extern "C" void reference(const KB_T* X, KB_T* Y, size_t B, size_t F, size_t D1, size_t D2) {
  size_t S = D1 * D2;
  double* sums = nullptr;  // F channel totals of x, then F sums of squared deviations
  cudaMalloc(&sums, 2 * F * sizeof(double));
  cudaMemset(sums, 0, 2 * F * sizeof(double));
  dim3 grid(kBlocksPerChannel, (unsigned)F);
  channelSumsReference<<<grid, kThreads>>>(X, B, F, S, nullptr, sums);
  channelSumsReference<<<grid, kThreads>>>(X, B, F, S, sums, sums + F);
  normalizeReference<<<(unsigned)((B * F * S + kThreads - 1) / kThreads), kThreads>>>(X, Y, B, F, S, sums, sums + F);
  cudaFree(sums);
}
