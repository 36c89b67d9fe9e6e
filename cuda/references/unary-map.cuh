// The shared body of the activation references: one thread per element computes f(x) in double, x the element
// widened exactly (through float, which every KB_T converts to), and rounds the result once to KB_T.
#pragma once

template <typename F>
__global__ void unaryMapReference(const KB_T* input, KB_T* output, size_t count, F f) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= count) return;
  output[i] = (KB_T)f((double)(float)input[i]);
}

template <typename F>
void launchUnaryMapReference(const KB_T* input, KB_T* output, size_t count, F f) {
  unaryMapReference<<<(unsigned)((count + 255) / 256), 256>>>(input, output, count, f);
}
