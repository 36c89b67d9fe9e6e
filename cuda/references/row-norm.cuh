// The references of the row normalisations (rms-norm, l1-norm, l2-norm, frobenius-norm as one row), in double: each
// thread adds term(x) over its strided part of a row into the row's total with one double atomicAdd; then one
// thread per element writes scale(x, the total of its row). KB_T is the element type.
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>

static const size_t kPerThread = 16;  // elements of a row per thread, about
static const unsigned kThreads = 256;

template <class Term>
__global__ void rowTotalsReference(const KB_T* X, size_t B, size_t N, Term term, double* totals) {
  for (size_t row = blockIdx.y; row < B; row += gridDim.y) {
    double acc = 0.0;
    for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < N; j += (size_t)gridDim.x * blockDim.x) {
      acc += term((double)(float)X[row * N + j]);
    }
    atomicAdd(&totals[row], acc);
  }
}

template <class Scale>
__global__ void scaleRowsReference(const KB_T* X, KB_T* Y, size_t B, size_t N, const double* totals, Scale scale) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= B * N) return;
  Y[i] = (KB_T)scale((double)(float)X[i], totals[i / N]);
}

// Y[r][j] = scale(X[r][j], Σ_k term(X[r][k])) for each of the B rows of N elements.
template <class Term, class Scale>
void normalizeRowsReference(const KB_T* X, KB_T* Y, size_t B, size_t N, Term term, Scale scale) {
  double* totals = nullptr;
  cudaMalloc(&totals, B * sizeof(double));
  cudaMemset(totals, 0, B * sizeof(double));
  dim3 grid((unsigned)((N + kThreads * kPerThread - 1) / (kThreads * kPerThread)), (unsigned)(B < 65535 ? B : 65535));
  rowTotalsReference<<<grid, kThreads>>>(X, B, N, term, totals);
  scaleRowsReference<<<(unsigned)((B * N + kThreads - 1) / kThreads), kThreads>>>(X, Y, B, N, totals, scale);
  cudaFree(totals);
}

struct Square {
  __device__ double operator()(double x) const { return x * x; }
};
