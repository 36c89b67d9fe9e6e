// An inclusive scan of a float vector with a reduction operator (Sum for cumsum, Prod for cumprod), shared by the
// example solutions of the scans. Reduce, then scan: (1) each block reduces one tile of kTile elements to its
// total, (2) one block turns the totals into exclusive prefixes, (3) each block scans its tile again, starting from
// its prefix. Inside a tile each thread owns kPerThread consecutive elements, scans them in registers and the block
// scans the threads' totals with warp shuffles.
#pragma once
#include "reduction.cuh"

namespace reduction {

constexpr int kScanThreads = 256;
constexpr int kPerThread = 8;
constexpr size_t kTile = (size_t)kScanThreads * kPerThread;

// Inclusive scan across a warp (Op::merge(earlier, later)).
template <class Op>
__device__ typename Op::State warpInclusiveScan(typename Op::State s) {
#pragma unroll
  for (int offset = 1; offset < kWarp; offset *= 2) {
    typename Op::State earlier = __shfl_up_sync(kFullMask, s, offset);
    if ((int)laneId() >= offset) s = Op::merge(earlier, s);
  }
  return s;
}

// The exclusive prefix of each thread's state within a 1-D block of blockDim.x threads (a multiple of 32), and the
// block's total in *total.
template <class Op>
__device__ typename Op::State blockExclusiveScan(typename Op::State s, typename Op::State* total) {
  __shared__ typename Op::State warpTotals[kWarp];
  typename Op::State inclusive = warpInclusiveScan<Op>(s);
  unsigned warp = threadIdx.x / kWarp, warps = blockDim.x / kWarp;
  if (laneId() == kWarp - 1) warpTotals[warp] = inclusive;
  __syncthreads();
  typename Op::State before = Op::identity(), all = Op::identity();
  for (unsigned w = 0; w < warps; ++w) {
    if (w == warp) before = all;
    all = Op::merge(all, warpTotals[w]);
  }
  __syncthreads();
  *total = all;
  typename Op::State earlierInWarp = __shfl_up_sync(kFullMask, inclusive, 1);
  return Op::merge(before, laneId() == 0 ? Op::identity() : earlierInWarp);
}

template <class Op>
__global__ void __launch_bounds__(kScanThreads) tileTotals(const float* in, size_t n, typename Op::State* totals) {
  const float* tile = in + blockIdx.x * kTile;
  size_t left = n - blockIdx.x * kTile, count = left < kTile ? left : kTile;
  typename Op::State s = Op::identity();
  for (size_t i = threadIdx.x; i < count; i += kScanThreads) s = Op::push(s, tile[i], i);
  s = blockMerge<Op>(s);
  if (threadIdx.x == 0) totals[blockIdx.x] = s;
}

// One block of kScanThreads: exclusive prefixes of the tile totals, kScanThreads at a time with a carry.
template <class Op>
__global__ void __launch_bounds__(kScanThreads) totalsToPrefixes(typename Op::State* totals, size_t tiles) {
  typename Op::State carry = Op::identity();
  for (size_t first = 0; first < tiles; first += kScanThreads) {
    size_t t = first + threadIdx.x;
    typename Op::State mine = t < tiles ? totals[t] : Op::identity(), sum;
    typename Op::State before = blockExclusiveScan<Op>(mine, &sum);
    if (t < tiles) totals[t] = Op::merge(carry, before);
    carry = Op::merge(carry, sum);
  }
}

template <class Op, typename Out>
__global__ void __launch_bounds__(kScanThreads) scanTiles(const float* in, Out* out, size_t n, const typename Op::State* prefixes) {
  size_t first = blockIdx.x * kTile + (size_t)threadIdx.x * kPerThread;
  float v[kPerThread];
  typename Op::State s = Op::identity();
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    v[k] = first + k < n ? in[first + k] : 0.0f;
    if (first + k < n) s = Op::push(s, v[k], k);
  }
  typename Op::State tileTotal;
  typename Op::State running = Op::merge(prefixes[blockIdx.x], blockExclusiveScan<Op>(s, &tileTotal));
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    if (first + k >= n) break;
    running = Op::push(running, v[k], k);
    out[first + k] = running;
  }
}

// out[i] = in[0] ∘ … ∘ in[i] for Op's ∘ (Sum, Prod; SumInDouble for prefixes kept in double).
template <class Op, typename Out = float>
void inclusiveScan(const float* in, Out* out, size_t n) {
  static_assert(sizeof(typename Op::State) == sizeof(Out), "a scan's running state is the value it writes");
  if (n == 0) return;
  size_t tiles = (n + kTile - 1) / kTile;
  typename Op::State* totals = scratch<typename Op::State>(tiles);
  tileTotals<Op><<<(unsigned)tiles, kScanThreads>>>(in, n, totals);
  totalsToPrefixes<Op><<<1, kScanThreads>>>(totals, tiles);
  scanTiles<Op, Out><<<(unsigned)tiles, kScanThreads>>>(in, out, n, totals);
}

}  // namespace reduction
