// The pooling family's example kernel (avg-pool-1d, -2d, -3d, max-pool-1d, -2d, -3d), one thread per output element
// as PyTorch's own pooling kernels do: threads along x take consecutive outputs of the innermost dimension, so a
// warp's loads of each window row are coalesced and the overlap between neighbouring windows can be served from L1
// and L2 rather than DRAM; y takes the output rows (H for 2-D, H·W for 3-D). Each thread clips its window to the
// input once per dimension, so the loops carry no bounds test and no padding load: average pooling sums what is
// inside and scales by 1/K^dims (PyTorch's count_include_pad), max pooling keeps the largest (padding is −∞). The
// block is 256 threads, shaped to the innermost extent so that a narrow output does not leave most of it idle.
#pragma once
#include <cuda_runtime.h>
#include <math.h>
#include <stddef.h>

namespace pool {

constexpr int kThreads = 256;
constexpr unsigned kMaxGridY = 65535;

struct Average {
  __device__ static float identity() { return 0.0f; }
  __device__ static float push(float acc, float x) { return acc + x; }
  __device__ static float result(float acc, float scale) { return acc * scale; }
};

struct Maximum {
  __device__ static float identity() { return -INFINITY; }
  __device__ static float push(float acc, float x) { return fmaxf(acc, x); }
  __device__ static float result(float acc, float) { return acc; }
};

// The input as [outer][rows][inner] (H×W×D for 3-D; 1×H×W for 2-D; 1×1×H for 1-D): extents and window in int,
// since every extent of a real tensor is below 2^31; element offsets are size_t.
struct Geometry {
  int in[3], out[3];
  int kernel, stride, padding, dilation;
  float scale;  // 1/K^dims for average pooling, unused by max pooling
};

// The window of output `o` along one dimension of extent n: input positions first + m·dilation, m in [begin, end).
struct Taps {
  int first, begin, end;
};

__device__ inline Taps tapsOf(int o, int n, const Geometry& g) {
  const int first = o * g.stride - g.padding;
  const int begin = first < 0 ? (-first + g.dilation - 1) / g.dilation : 0;
  const int room = n - first;  // first + m·dilation < n  ⇔  m < room / dilation
  const int end = room <= 0 ? 0 : min(g.kernel, (room + g.dilation - 1) / g.dilation);
  return {first, begin, end};
}

// Dims: how many of the three dimensions, counted from the innermost, the window slides along.
template <class Op, int Dims>
__global__ void __launch_bounds__(kThreads) poolKernel(const float* __restrict__ input, float* __restrict__ output, Geometry g) {
  const int o2 = blockIdx.x * blockDim.x + threadIdx.x;
  if (o2 >= g.out[2]) return;
  const Taps t2 = tapsOf(o2, g.in[2], g);
  const unsigned rows = (unsigned)g.out[0] * (unsigned)g.out[1];
  for (unsigned row = blockIdx.y * blockDim.y + threadIdx.y; row < rows; row += gridDim.y * blockDim.y) {
    const int o0 = row / g.out[1], o1 = row % g.out[1];
    const Taps t0 = Dims == 3 ? tapsOf(o0, g.in[0], g) : Taps{0, 0, 1};
    const Taps t1 = Dims >= 2 ? tapsOf(o1, g.in[1], g) : Taps{0, 0, 1};
    float acc = Op::identity();
    for (int a = t0.begin; a < t0.end; ++a) {
      const float* plane = input + (size_t)(t0.first + a * g.dilation) * g.in[1] * g.in[2];
      for (int b = t1.begin; b < t1.end; ++b) {
        const float* line = plane + (size_t)(t1.first + b * g.dilation) * g.in[2] + t2.first;
        for (int c = t2.begin; c < t2.end; ++c) acc = Op::push(acc, __ldg(line + c * g.dilation));
      }
    }
    output[(size_t)row * g.out[2] + o2] = Op::result(acc, g.scale);
  }
}

// The geometry of Tensara's (H[, W[, D]]) input with the window's ints; PyTorch's floor-mode output extents.
template <int Dims>
Geometry geometry(const size_t (&extents)[Dims], int kernel, int stride, int padding, int dilation) {
  Geometry g = {{1, 1, 1}, {1, 1, 1}, kernel, stride, padding, dilation, 1.0f};
  for (int d = 0; d < Dims; ++d) {
    const int n = (int)extents[d], at = 3 - Dims + d;
    g.in[at] = n;
    g.out[at] = (n + 2 * padding - dilation * (kernel - 1) - 1) / stride + 1;
    g.scale /= (float)kernel;
  }
  return g;
}

template <class Op, int Dims>
void run(const float* input, float* output, const size_t (&extents)[Dims], int kernel, int stride, int padding, int dilation) {
  const Geometry g = geometry<Dims>(extents, kernel, stride, padding, dilation);
  unsigned x = 32;  // threads along the innermost dimension: a warp at least, all 256 for a wide output
  while (x < kThreads && x < (unsigned)g.out[2]) x *= 2;
  const dim3 block(x, kThreads / x);
  const unsigned rows = (unsigned)g.out[0] * (unsigned)g.out[1];
  const dim3 grid((g.out[2] + x - 1) / x, min((rows + block.y - 1) / block.y, kMaxGridY));
  poolKernel<Op, Dims><<<grid, block>>>(input, output, g);
}

}  // namespace pool
