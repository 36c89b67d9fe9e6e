// A vectorized elementwise map, shared by the example solutions of relu, leaky-relu, gelu and matrix-scalar:
// out[i] = op(in[i]) with op a float -> float functor. Each thread moves 16 bytes at a time (a float4, or four
// __half2 / __nv_bfloat162 pairs) in a grid-stride loop; the last n % (16 / sizeof(T)) elements go one by one.
// The math is done in float and rounded once to T. Assumes 16-byte aligned buffers, as cudaMalloc returns.
#pragma once
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <algorithm>
#include <type_traits>

namespace vectorized_map {

constexpr int kThreads = 256;

__device__ inline float toFloat(float x) { return x; }
__device__ inline float toFloat(__half x) { return __half2float(x); }
__device__ inline float toFloat(__nv_bfloat16 x) { return __bfloat162float(x); }

template <typename T> __device__ T fromFloat(float x);
template <> __device__ inline float fromFloat<float>(float x) { return x; }
template <> __device__ inline __half fromFloat<__half>(float x) { return __float2half_rn(x); }
template <> __device__ inline __nv_bfloat16 fromFloat<__nv_bfloat16>(float x) { return __float2bfloat16_rn(x); }

// The pair type of each half type, widened to float2 and narrowed back with one instruction per pair.
template <typename T> struct Pair;
template <> struct Pair<__half> {
  using type = __half2;
  __device__ static float2 widen(__half2 p) { return __half22float2(p); }
  __device__ static __half2 narrow(float2 f) { return __float22half2_rn(f); }
};
template <> struct Pair<__nv_bfloat16> {
  using type = __nv_bfloat162;
  __device__ static float2 widen(__nv_bfloat162 p) { return __bfloat1622float2(p); }
  __device__ static __nv_bfloat162 narrow(float2 f) { return __float22bfloat162_rn(f); }
};

// op applied to every element of a 16-byte chunk of T.
template <typename T, typename Op>
__device__ inline uint4 mapChunk(uint4 chunk, const Op& op) {
  if constexpr (std::is_same_v<T, float>) {
    float4& v = reinterpret_cast<float4&>(chunk);
    v = make_float4(op(v.x), op(v.y), op(v.z), op(v.w));
  } else {
    auto* pairs = reinterpret_cast<typename Pair<T>::type*>(&chunk);
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      float2 f = Pair<T>::widen(pairs[k]);
      pairs[k] = Pair<T>::narrow(make_float2(op(f.x), op(f.y)));
    }
  }
  return chunk;
}

template <typename T, typename Op>
__global__ void __launch_bounds__(kThreads) mapKernel(const T* __restrict__ in, T* __restrict__ out, size_t n, Op op) {
  constexpr size_t kPerChunk = sizeof(uint4) / sizeof(T);
  const size_t chunks = n / kPerChunk;
  const size_t first = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  const uint4* inChunks = reinterpret_cast<const uint4*>(in);
  uint4* outChunks = reinterpret_cast<uint4*>(out);
  for (size_t c = first; c < chunks; c += stride) outChunks[c] = mapChunk<T>(inChunks[c], op);
  const size_t i = chunks * kPerChunk + first;  // the tail: fewer elements than a chunk, one per thread
  if (i < n) out[i] = fromFloat<T>(op(toFloat(in[i])));
}

// As many blocks as the GPU runs at once (full occupancy); the grid-stride loop covers the rest.
inline unsigned residentBlocks() {
  static const unsigned blocks = [] {
    int device = 0, sms = 0, threadsPerSm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaDeviceGetAttribute(&threadsPerSm, cudaDevAttrMaxThreadsPerMultiProcessor, device);
    return (unsigned)(sms * (threadsPerSm / kThreads));
  }();
  return blocks;
}

template <typename T, typename Op>
void launch(const T* in, T* out, size_t n, Op op) {
  const size_t chunks = n / (sizeof(uint4) / sizeof(T));
  const size_t needed = std::max<size_t>(1, (chunks + kThreads - 1) / kThreads);  // one block for a tail alone
  mapKernel<<<(unsigned)std::min<size_t>(needed, residentBlocks()), kThreads>>>(in, out, n, op);
}

}  // namespace vectorized_map
