// The latency-bound kernel of scripts/counters-probe.ts: one warp, each thread a chain of dependent FMAs, so every
// instruction waits for the one before it and the GPU's units stay nearly idle.
#include <cuda_runtime.h>

__global__ void dependentChain(float* out, int steps) {
  float x = threadIdx.x * 1e-3f;
  for (int i = 0; i < steps; ++i) x = fmaf(x, 0.999f, 1e-3f);
  out[threadIdx.x] = x;
}

extern "C" void solution(float* out, size_t steps) { dependentChain<<<1, 32>>>(out, (int)steps); }
