// Building blocks shared by the example solutions of the reduction family (softmax, log-softmax, sum-dim, mean-dim,
// max-dim, min-dim, product-dim, argmax, argmin, rms-norm, layer-norm, l1-norm, l2-norm, frobenius-norm, batch-norm,
// the scans) and by edge-detect's maximum: the [outer][size][inner] view of a reduction over one dimension, a growing
// scratch buffer, reduction operators, warp / block / column merges that hand the merged state to every thread taking
// part, and 16-byte vector access.
// An operator is a struct with a `State`, `identity()`, `push(state, value, index)`, a commutative `merge` and
// `result(state, size)`, which turns the merged state of a slice of `size` elements into the output.
#pragma once
#include <cuda_runtime.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

namespace reduction {

constexpr int kWarp = 32;
constexpr unsigned kFullMask = 0xffffffffu;
// A row kernel gives each row one warp, eight rows to a block.
constexpr int kRowsPerBlock = 8;
// A column kernel's block is 32 adjacent columns (coalesced loads) × 8 threads that split each column's elements.
constexpr int kColumnSplit = 8;

// The input of a reduction over `dim` seen as [outer][size][inner]: `size` is the reduced extent and `inner` the
// stride between consecutive elements of one slice (1: the slice is a contiguous row).
struct SliceLayout {
  size_t outer, size, inner;
};

// From a shape the host can read: Tensara gives sum-dim, min-dim (size_t), argmax and argmin (int) their shape in
// host memory.
template <typename S>
inline SliceLayout sliceLayout(int dim, const S* shape, S ndim) {
  SliceLayout layout = {1, (size_t)shape[dim], 1};
  for (int d = 0; d < (int)ndim; ++d) {
    if (d < dim) layout.outer *= (size_t)shape[d];
    if (d > dim) layout.inner *= (size_t)shape[d];
  }
  return layout;
}

constexpr size_t kMaxDims = 8;

// Tensara gives softmax, sum-dim, max-dim, mean-dim and product-dim their shape in device memory: one small copy per
// call, which a solution with this interface cannot avoid.
inline SliceLayout sliceLayoutFromDevice(int dim, const size_t* deviceShape, size_t ndim) {
  size_t shape[kMaxDims] = {};
  cudaMemcpy(shape, deviceShape, (ndim < kMaxDims ? ndim : kMaxDims) * sizeof(size_t), cudaMemcpyDeviceToHost);
  return sliceLayout(dim, shape, ndim);
}

inline unsigned blocksFor(size_t work, size_t perBlock) { return (unsigned)((work + perBlock - 1) / perBlock); }

// A device buffer of at least `count` T, grown on the first call that needs more: Tensara's interfaces have no
// scratch buffer, and allocating on every call would be timed with the kernels. kSlot tells apart buffers of one T
// that are in use at the same time.
template <typename T, int kSlot = 0>
T* scratch(size_t count) {
  static T* buffer = nullptr;
  static size_t capacity = 0;
  if (count > capacity) {
    cudaFree(buffer);
    cudaMalloc(&buffer, count * sizeof(T));
    capacity = count;
  }
  return buffer;
}

// ---- operators ----------------------------------------------------------------------------------------------

struct Sum {
  using State = float;
  using Out = float;
  __device__ static State identity() { return 0.0f; }
  __device__ static State push(State s, float v, size_t) { return s + v; }
  __device__ static State merge(State a, State b) { return a + b; }
  __device__ static Out result(State s, size_t) { return s; }
};

struct Max {
  using State = float;
  using Out = float;
  __device__ static State identity() { return -INFINITY; }
  __device__ static State push(State s, float v, size_t) { return fmaxf(s, v); }
  __device__ static State merge(State a, State b) { return fmaxf(a, b); }
  __device__ static Out result(State s, size_t) { return s; }
};

// The sum in float, divided by the slice's size once at the end.
struct Mean : Sum {
  __device__ static Out result(State s, size_t size) { return s / (float)size; }
};

struct Min {
  using State = float;
  using Out = float;
  __device__ static State identity() { return INFINITY; }
  __device__ static State push(State s, float v, size_t) { return fminf(s, v); }
  __device__ static State merge(State a, State b) { return fminf(a, b); }
  __device__ static Out result(State s, size_t) { return s; }
};

struct Prod {
  using State = float;
  using Out = float;
  __device__ static State identity() { return 1.0f; }
  __device__ static State push(State s, float v, size_t) { return s * v; }
  __device__ static State merge(State a, State b) { return a * b; }
  __device__ static Out result(State s, size_t) { return s; }
};

// Sums of |x| and of x², for the row norms (l1-norm, l2-norm, rms-norm).
struct SumOfAbs : Sum {
  __device__ static State push(State s, float v, size_t) { return s + fabsf(v); }
};

struct SumOfSquares : Sum {
  __device__ static State push(State s, float v, size_t) { return s + v * v; }
};

// A sum kept in double, for prefixes whose differences must stay accurate (running-sum-1d).
struct SumInDouble {
  using State = double;
  __device__ static State identity() { return 0.0; }
  __device__ static State push(State s, float v, size_t) { return s + (double)v; }
  __device__ static State merge(State a, State b) { return a + b; }
};

// Running maximum and sum of exp(x - max), for softmax and log-softmax; merging rescales both sums to the larger
// maximum.
struct OnlineSoftmax {
  struct State {
    float max, sum;
  };
  __device__ static State identity() { return {-INFINITY, 0.0f}; }
  __device__ static State push(State s, float v, size_t) {
    if (v > s.max) return {v, s.sum * __expf(s.max - v) + 1.0f};
    return {s.max, s.sum + __expf(v - s.max)};
  }
  __device__ static State merge(State a, State b) {
    float max = fmaxf(a.max, b.max);
    if (max == -INFINITY) return a;  // both empty: exp(-inf - -inf) would be NaN
    return {max, a.sum * __expf(a.max - max) + b.sum * __expf(b.max - max)};
  }
};

// The first index of the maximum: ties go to the smaller index, so the merge order does not matter.
struct ArgMax {
  struct State {
    float value;
    int index;
  };
  using Out = int;
  __device__ static State identity() { return {-INFINITY, INT_MAX}; }
  __device__ static State push(State s, float v, size_t i) { return merge(s, {v, (int)i}); }
  __device__ static State merge(State a, State b) {
    return (b.value > a.value || (b.value == a.value && b.index < a.index)) ? b : a;
  }
  __device__ static Out result(State s, size_t) { return s.index; }
};

// The first index of the minimum: ArgMax on negated values (negation is exact, so ties stay ties).
struct ArgMin : ArgMax {
  __device__ static State push(State s, float v, size_t i) { return ArgMax::push(s, -v, i); }
};

// ---- merges ---------------------------------------------------------------------------------------------------

__device__ inline unsigned laneId() { return threadIdx.x % kWarp; }

// Shuffles a state of any size made of 32-bit words.
template <class T>
__device__ T shuffleXor(T value, int laneMask) {
  static_assert(sizeof(T) % sizeof(int) == 0, "a shuffled state is made of 32-bit words");
  constexpr int kWords = sizeof(T) / sizeof(int);
  int words[kWords];
  memcpy(words, &value, sizeof(T));
#pragma unroll
  for (int w = 0; w < kWords; ++w) words[w] = __shfl_xor_sync(kFullMask, words[w], laneMask);
  memcpy(&value, words, sizeof(T));
  return value;
}

// Butterfly merge over a full warp: with a commutative merge every lane ends with the same state.
template <class Op>
__device__ typename Op::State warpMerge(typename Op::State s) {
#pragma unroll
  for (int offset = kWarp / 2; offset > 0; offset /= 2) s = Op::merge(s, shuffleXor(s, offset));
  return s;
}

// Merges one state per thread of a 1-D block (blockDim.x a multiple of 32); every thread gets the result.
template <class Op>
__device__ typename Op::State blockMerge(typename Op::State s) {
  __shared__ typename Op::State warpStates[kWarp];
  s = warpMerge<Op>(s);
  if (laneId() == 0) warpStates[threadIdx.x / kWarp] = s;
  __syncthreads();
  s = warpStates[0];
  for (unsigned w = 1; w < blockDim.x / kWarp; ++w) s = Op::merge(s, warpStates[w]);
  __syncthreads();  // the next merge may overwrite warpStates
  return s;
}

// Merges the kColumnSplit states of each column of a (32 × kColumnSplit) block; every thread of the column gets it.
template <class Op>
__device__ typename Op::State columnMerge(typename Op::State s) {
  __shared__ typename Op::State parts[kColumnSplit][kWarp];
  parts[threadIdx.y][threadIdx.x] = s;
  __syncthreads();
  s = parts[0][threadIdx.x];
  for (int y = 1; y < kColumnSplit; ++y) s = Op::merge(s, parts[y][threadIdx.x]);
  __syncthreads();
  return s;
}

// ---- element access -----------------------------------------------------------------------------------------

__device__ inline bool vectorizable(const void* p, size_t n) { return reinterpret_cast<uintptr_t>(p) % 16 == 0 && n % 4 == 0; }

// Calls f(x[i], i) for the elements of x[0, n) that thread `lane` of `lanes` owns: groups of four (one 16-byte
// load) dealt round-robin when x is 16-byte aligned and n a multiple of four, single elements otherwise.
template <class F>
__device__ void forEachOwned(const float* x, size_t n, size_t lane, size_t lanes, F f) {
  if (vectorizable(x, n)) {
    const float4* x4 = reinterpret_cast<const float4*>(x);
    for (size_t q = lane; q < n / 4; q += lanes) {
      float4 v = x4[q];
      f(v.x, 4 * q);
      f(v.y, 4 * q + 1);
      f(v.z, 4 * q + 2);
      f(v.w, 4 * q + 3);
    }
  } else {
    for (size_t i = lane; i < n; i += lanes) f(x[i], i);
  }
}

// y[i] = g(x[i], i) for the elements that thread `lane` of `lanes` owns, dealt as in forEachOwned.
template <class G>
__device__ void mapOwned(const float* x, float* y, size_t n, size_t lane, size_t lanes, G g) {
  if (vectorizable(x, n) && vectorizable(y, n)) {
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float4* y4 = reinterpret_cast<float4*>(y);
    for (size_t q = lane; q < n / 4; q += lanes) {
      float4 v = x4[q];
      y4[q] = make_float4(g(v.x, 4 * q), g(v.y, 4 * q + 1), g(v.z, 4 * q + 2), g(v.w, 4 * q + 3));
    }
  } else {
    for (size_t i = lane; i < n; i += lanes) y[i] = g(x[i], i);
  }
}

// ---- slices: contiguous rows (one warp each) and strided columns (one column of a column block each) ----------

// The row a warp of a row kernel works on; rows >= the row count mean "nothing to do" (the whole warp agrees).
__device__ inline size_t rowOfWarp() { return blockIdx.x * (size_t)kRowsPerBlock + threadIdx.x / kWarp; }

// The merged state of row[0, size), computed by one warp; every lane gets it.
template <class Op>
__device__ typename Op::State rowState(const float* row, size_t size) {
  typename Op::State s = Op::identity();
  forEachOwned(row, size, laneId(), kWarp, [&](float v, size_t i) { s = Op::push(s, v, i); });
  return warpMerge<Op>(s);
}

// Which column of the [outer][size][inner] view a thread of a column kernel serves.
struct Column {
  size_t first;  // index of the column's element 0 in the input (and in a same-shaped output)
  size_t slot;   // index of the column in a reduced output ([outer][inner])
  bool active;   // false for the padding threads past the last column of a row of tiles
};

__device__ inline Column columnOfThread(const SliceLayout& l, size_t tiles) {
  size_t outer = blockIdx.x / tiles;
  size_t inner = (blockIdx.x % tiles) * kWarp + threadIdx.x;
  return {outer * l.size * l.inner + inner, outer * l.inner + inner, inner < l.inner};
}

// The merged state of a column; inactive threads take part in the merge with the identity.
template <class Op>
__device__ typename Op::State columnState(const float* input, const SliceLayout& l, const Column& c) {
  typename Op::State s = Op::identity();
  if (c.active) {
    for (size_t k = threadIdx.y; k < l.size; k += kColumnSplit) s = Op::push(s, input[c.first + k * l.inner], k);
  }
  return columnMerge<Op>(s);
}

struct ColumnLaunch {
  unsigned blocks;
  size_t tiles;  // blocks per outer index
  dim3 block;
};

inline ColumnLaunch columnLaunch(const SliceLayout& l) {
  size_t tiles = (l.inner + kWarp - 1) / kWarp;
  return {(unsigned)(l.outer * tiles), tiles, dim3(kWarp, kColumnSplit)};
}

// ---- a complete reduction over one dimension (sum-, mean-, max-, min-, product-dim, argmax, argmin) --------

template <class Op>
__global__ void __launch_bounds__(kRowsPerBlock * kWarp) reduceRows(const float* in, typename Op::Out* out, size_t rows, size_t size) {
  size_t row = rowOfWarp();
  if (row >= rows) return;
  typename Op::State s = rowState<Op>(in + row * size, size);
  if (laneId() == 0) out[row] = Op::result(s, size);
}

template <class Op>
__global__ void __launch_bounds__(kColumnSplit * kWarp) reduceColumns(const float* in, typename Op::Out* out, SliceLayout l, size_t tiles) {
  Column c = columnOfThread(l, tiles);
  typename Op::State s = columnState<Op>(in, l, c);
  if (c.active && threadIdx.y == 0) out[c.slot] = Op::result(s, l.size);
}

// out[o][i] = Op over k of in[o][k][i]: a warp per contiguous row when inner == 1, column blocks otherwise.
template <class Op>
void reduceOverDim(const float* in, typename Op::Out* out, const SliceLayout& l) {
  if (l.inner == 1) {
    reduceRows<Op><<<blocksFor(l.outer, kRowsPerBlock), kRowsPerBlock * kWarp>>>(in, out, l.outer, l.size);
  } else {
    ColumnLaunch launch = columnLaunch(l);
    reduceColumns<Op><<<launch.blocks, launch.block>>>(in, out, l, launch.tiles);
  }
}

}  // namespace reduction
