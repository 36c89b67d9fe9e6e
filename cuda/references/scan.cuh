// The references of the scans (cumsum, cumprod), in double: one thread folds each chunk of kChunk elements into
// its total, one thread turns the totals into exclusive prefixes, then one thread per chunk writes its running
// prefix element by element. Op is a struct with identity() and apply(a, b) on doubles.
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>

constexpr size_t kChunk = 1024;

template <class Op, typename T>
__global__ void chunkTotals(const T* input, size_t n, double* totals, size_t chunks) {
  size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (c >= chunks) return;
  double total = Op::identity();
  for (size_t i = c * kChunk; i < n && i < (c + 1) * kChunk; ++i) total = Op::apply(total, (double)(float)input[i]);
  totals[c] = total;
}

template <class Op>
__global__ void exclusivePrefixes(double* totals, size_t chunks) {
  double running = Op::identity();
  for (size_t c = 0; c < chunks; ++c) {
    double total = totals[c];
    totals[c] = running;
    running = Op::apply(running, total);
  }
}

template <class Op, typename T>
__global__ void writeChunks(const T* input, T* output, size_t n, const double* prefixes, size_t chunks) {
  size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (c >= chunks) return;
  double running = prefixes[c];
  for (size_t i = c * kChunk; i < n && i < (c + 1) * kChunk; ++i) {
    running = Op::apply(running, (double)(float)input[i]);
    output[i] = (T)running;
  }
}

template <class Op, typename T>
void scanReference(const T* input, T* output, size_t n) {
  size_t chunks = (n + kChunk - 1) / kChunk;
  double* totals = nullptr;
  cudaMalloc(&totals, chunks * sizeof(double));
  unsigned blocks = (unsigned)((chunks + 255) / 256);
  chunkTotals<Op><<<blocks, 256>>>(input, n, totals, chunks);
  exclusivePrefixes<Op><<<1, 1>>>(totals, chunks);
  writeChunks<Op><<<blocks, 256>>>(input, output, n, totals, chunks);
  cudaFree(totals);
}
