// Batch normalisation of a B×F×D1×D2 tensor as PyTorch's BatchNorm2d computes it without affine parameters or
// running statistics: channel f is normalised with the mean and biased variance of its B·D1·D2 elements, which lie in
// B contiguous segments of S = D1·D2 (segment b·F + f). Two launches over the same grid of chunks (moments.cuh):
//   1. one block per chunk of at most kChunk elements of a segment stores the chunk's count, mean and M2;
//   2. one block per chunk merges its channel's B·chunks statistics and writes (x - mean) * rsqrt(var + eps) for its
//      chunk with 16-byte loads and stores.
#include <algorithm>
#include "../../reduction-common/moments.cuh"

using namespace moments;

constexpr float kEpsilon = 1e-5f;
constexpr int kThreads = 256;
constexpr size_t kChunk = 8192;  // a multiple of four, so that 16-byte access stays aligned when S is
constexpr size_t kMaxGridY = 65535;

struct Layout {
  size_t B, F, S, chunks;  // chunks per segment
  // Where the statistics of chunk k of segment (b, f) go: each channel's B·chunks of them side by side.
  __device__ size_t part(size_t segment, size_t k) const { return ((segment % F) * B + segment / F) * chunks + k; }
};

__device__ inline size_t chunkLength(const Layout& l) { return min(kChunk, l.S - blockIdx.x * kChunk); }

__global__ void __launch_bounds__(kThreads) momentsOfChunks(const float* X, Layout l, Moments::State* parts) {
  for (size_t segment = blockIdx.y; segment < l.B * l.F; segment += gridDim.y) {
    Moments::State m = blockMoments(X + segment * l.S + blockIdx.x * kChunk, chunkLength(l));
    if (threadIdx.x == 0) parts[l.part(segment, blockIdx.x)] = m;
  }
}

__global__ void __launch_bounds__(kThreads) normalizeChunks(const float* X, float* Y, Layout l, const Moments::State* parts) {
  for (size_t segment = blockIdx.y; segment < l.B * l.F; segment += gridDim.y) {
    Moments::State channel = blockMergeOf(parts + l.part(segment % l.F, 0), l.B * l.chunks);
    float mean = channel.mean, scale = rsqrtf(channel.m2 / channel.count + kEpsilon);
    size_t offset = segment * l.S + blockIdx.x * kChunk;
    reduction::mapOwned(X + offset, Y + offset, chunkLength(l), threadIdx.x, blockDim.x, [=](float v, size_t) { return (v - mean) * scale; });
  }
}

extern "C" void solution(const float* X, float* Y, size_t B, size_t F, size_t D1, size_t D2) {
  size_t S = D1 * D2;
  Layout l = {B, F, S, (S + kChunk - 1) / kChunk};
  Moments::State* parts = reduction::scratch<Moments::State>(B * F * l.chunks);
  dim3 grid((unsigned)l.chunks, (unsigned)std::min(B * F, kMaxGridY));
  momentsOfChunks<<<grid, kThreads>>>(X, l, parts);
  normalizeChunks<<<grid, kThreads>>>(X, Y, l, parts);
}
