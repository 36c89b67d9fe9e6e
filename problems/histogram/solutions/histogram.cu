// Histogram with a private copy per block: each block counts its grid-stride share of the pixels into unsigned
// integers in shared memory (contention only within the block), reading four pixels per 16-byte load where the image
// is aligned, then adds its nonzero counts to the output with one float atomic each. Partial counts and their sums
// stay at or below 2^24, so the float additions are exact. More bins than shared memory holds count in global memory.
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

constexpr int kThreads = 512;
constexpr int kMaxSharedBins = 12 * 1024;  // 48 KiB of counts

__device__ inline int binOf(float x, int numBins) { return (int)fminf(fmaxf(x, 0.0f), (float)(numBins - 1)); }

__global__ void __launch_bounds__(kThreads) countInBlock(const float* __restrict__ image, int numBins, float* histogram, size_t pixels) {
  extern __shared__ unsigned int counts[];
  for (int b = threadIdx.x; b < numBins; b += kThreads) counts[b] = 0;
  __syncthreads();

  const size_t stride = (size_t)gridDim.x * kThreads;
  size_t first = blockIdx.x * (size_t)kThreads + threadIdx.x;
  size_t scalarFrom = 0;
  if (reinterpret_cast<uintptr_t>(image) % 16 == 0) {
    const float4* quads = reinterpret_cast<const float4*>(image);
    const size_t quadCount = pixels / 4;
    for (size_t q = first; q < quadCount; q += stride) {
      float4 v = quads[q];
      atomicAdd(&counts[binOf(v.x, numBins)], 1u);
      atomicAdd(&counts[binOf(v.y, numBins)], 1u);
      atomicAdd(&counts[binOf(v.z, numBins)], 1u);
      atomicAdd(&counts[binOf(v.w, numBins)], 1u);
    }
    scalarFrom = quadCount * 4;
  }
  for (size_t p = scalarFrom + first; p < pixels; p += stride) atomicAdd(&counts[binOf(image[p], numBins)], 1u);
  __syncthreads();

  for (int b = threadIdx.x; b < numBins; b += kThreads) {
    if (counts[b] != 0) atomicAdd(&histogram[b], (float)counts[b]);
  }
}

__global__ void countInGlobal(const float* __restrict__ image, int numBins, float* histogram, size_t pixels) {
  for (size_t p = blockIdx.x * (size_t)blockDim.x + threadIdx.x; p < pixels; p += (size_t)gridDim.x * blockDim.x) {
    atomicAdd(&histogram[binOf(image[p], numBins)], 1.0f);
  }
}

extern "C" void solution(const float* image, int num_bins, float* histogram, size_t height, size_t width) {
  const size_t pixels = height * width;
  cudaMemset(histogram, 0, num_bins * sizeof(float));
  if (pixels == 0) return;
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  // Enough blocks to fill the GPU, and no more than the pixels need: each block's merge costs num_bins atomics.
  const size_t wanted = (pixels + 4 * kThreads - 1) / (4 * kThreads);
  const unsigned blocks = (unsigned)(wanted < (size_t)sms * 4 ? wanted : (size_t)sms * 4);
  if (num_bins <= kMaxSharedBins) {
    countInBlock<<<blocks, kThreads, num_bins * sizeof(unsigned int)>>>(image, num_bins, histogram, pixels);
  } else {
    countInGlobal<<<blocks, kThreads>>>(image, num_bins, histogram, pixels);
  }
}
