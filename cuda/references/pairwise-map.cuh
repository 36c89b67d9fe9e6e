// The shared body of the elementwise loss references (huber-loss, hinge-loss, kl-loss): one thread per element
// computes f(p, t) in double from the float inputs and rounds the result once to float.
#pragma once

template <typename F>
__global__ void pairwiseMapReference(const KB_T* predictions, const KB_T* targets, KB_T* output, size_t n, F f) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  output[i] = (KB_T)f((double)(float)predictions[i], (double)(float)targets[i]);
}

template <typename F>
void launchPairwiseMapReference(const KB_T* predictions, const KB_T* targets, KB_T* output, size_t n, F f) {
  pairwiseMapReference<<<(unsigned)((n + 255) / 256), 256>>>(predictions, targets, output, n, f);
}
