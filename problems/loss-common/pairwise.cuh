// Building blocks shared by the example solutions of the loss family (huber-loss, hinge-loss, kl-loss, mse-loss,
// cosine-similarity): two float inputs read in lockstep with 16-byte loads, an elementwise loss map, and the
// mean of a loss over every element. Merges come from the reduction family's reduction.cuh.
#pragma once
#include "../reduction-common/reduction.cuh"
#include "../relu/solutions/vectorized_map.cuh"

namespace pairwise {

using reduction::blockMerge;
using reduction::Sum;
using reduction::vectorizable;

constexpr int kThreads = vectorized_map::kThreads;

// Calls f(x[i], y[i], i) for the elements of [0, n) that thread `lane` of `lanes` owns: groups of four (one 16-byte
// load from each input) dealt round-robin when both are 16-byte aligned and n a multiple of four, single elements
// otherwise.
template <class F>
__device__ void forEachPair(const float* x, const float* y, size_t n, size_t lane, size_t lanes, F f) {
  if (vectorizable(x, n) && vectorizable(y, n)) {
    const float4* x4 = reinterpret_cast<const float4*>(x);
    const float4* y4 = reinterpret_cast<const float4*>(y);
    for (size_t q = lane; q < n / 4; q += lanes) {
      float4 a = x4[q], b = y4[q];
      f(a.x, b.x, 4 * q);
      f(a.y, b.y, 4 * q + 1);
      f(a.z, b.z, 4 * q + 2);
      f(a.w, b.w, 4 * q + 3);
    }
  } else {
    for (size_t i = lane; i < n; i += lanes) f(x[i], y[i], i);
  }
}

// The thread's place in a 1-D grid-stride loop.
__device__ inline size_t gridLane() { return blockIdx.x * (size_t)blockDim.x + threadIdx.x; }
__device__ inline size_t gridLanes() { return (size_t)gridDim.x * blockDim.x; }

template <class Loss>
__global__ void __launch_bounds__(kThreads) mapKernel(const float* x, const float* y, float* out, size_t n, Loss loss) {
  if (vectorizable(x, n) && vectorizable(y, n) && vectorizable(out, n)) {
    const float4* x4 = reinterpret_cast<const float4*>(x);
    const float4* y4 = reinterpret_cast<const float4*>(y);
    float4* out4 = reinterpret_cast<float4*>(out);
    for (size_t q = gridLane(); q < n / 4; q += gridLanes()) {
      float4 a = x4[q], b = y4[q];
      out4[q] = make_float4(loss(a.x, b.x), loss(a.y, b.y), loss(a.z, b.z), loss(a.w, b.w));
    }
  } else {
    for (size_t i = gridLane(); i < n; i += gridLanes()) out[i] = loss(x[i], y[i]);
  }
}

// out[i] = loss(x[i], y[i]), loss a (float, float) -> float functor.
template <class Loss>
void map(const float* x, const float* y, float* out, size_t n, Loss loss) {
  size_t needed = std::max<size_t>(1, (n / 4 + kThreads - 1) / kThreads);
  mapKernel<<<(unsigned)std::min<size_t>(needed, vectorized_map::residentBlocks()), kThreads>>>(x, y, out, n, loss);
}

template <class Loss>
__global__ void __launch_bounds__(kThreads) blockSums(const float* x, const float* y, size_t n, Loss loss, float* partials) {
  float sum = 0.0f;
  forEachPair(x, y, n, gridLane(), gridLanes(), [&](float a, float b, size_t) { sum += loss(a, b); });
  sum = blockMerge<Sum>(sum);
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

__global__ void __launch_bounds__(1024) writeMean(const float* partials, unsigned count, size_t n, float* out) {
  float sum = 0.0f;
  for (unsigned i = threadIdx.x; i < count; i += blockDim.x) sum += partials[i];
  sum = blockMerge<Sum>(sum);
  if (threadIdx.x == 0) *out = sum / (float)n;
}

// out[0] = the mean of loss(x[i], y[i]) over [0, n). Two passes (a sum per block, then one block adds them) rather
// than atomics, so the result is the same every call.
template <class Loss>
void mean(const float* x, const float* y, float* out, size_t n, Loss loss) {
  static float* partials = [] {
    float* p = nullptr;
    cudaMalloc(&p, vectorized_map::residentBlocks() * sizeof(float));
    return p;
  }();
  size_t needed = std::max<size_t>(1, (n / 4 + kThreads - 1) / kThreads);
  unsigned blocks = (unsigned)std::min<size_t>(needed, vectorized_map::residentBlocks());
  blockSums<<<blocks, kThreads>>>(x, y, n, loss, partials);
  writeMean<<<1, 1024>>>(partials, blocks, n, out);
}

}  // namespace pairwise
