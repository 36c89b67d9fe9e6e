// The shared body of the pooling references (avg-pool-1d, -2d, -3d, max-pool-1d, -2d, -3d): one thread per output
// element walks its whole K×K×K window (K for 1-D, K×K for 2-D) in double, PyTorch's way: positions
// o·S − P + m·dilation, floor-mode output extents. Average pooling sums the positions inside the input (the zero
// padding adds nothing) and divides by K^dims, padding included (count_include_pad); max pooling takes the
// largest element inside the input (padding is −∞). The input is row-major H×W×D; a 1-D or 2-D input is one with
// W = D = 1 or D = 1, and no window along those dimensions.
#pragma once
#include <cuda_runtime.h>
#include <math.h>
#include <stddef.h>

enum class PoolKind { Average, Max };

struct PoolShape {
  int dims;               // 1, 2 or 3: how many of in[] the window slides along
  long long in[3];        // H, W, D
  long long out[3];       // the output's extents (1 where the input has none)
  long long kernel, stride, padding, dilation;
};

inline PoolShape poolShape(int dims, size_t H, size_t W, size_t D, int kernel, int stride, int padding, int dilation) {
  PoolShape s = {dims, {(long long)H, (long long)W, (long long)D}, {1, 1, 1}, kernel, stride, padding, dilation};
  for (int d = 0; d < dims; ++d) s.out[d] = (s.in[d] + 2 * s.padding - s.dilation * (s.kernel - 1) - 1) / s.stride + 1;
  return s;
}

template <PoolKind kKind>
__global__ void poolReference(const KB_T* input, KB_T* output, PoolShape s) {
  long long o = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (o >= s.out[0] * s.out[1] * s.out[2]) return;
  const long long at[3] = {o / (s.out[1] * s.out[2]), o / s.out[2] % s.out[1], o % s.out[2]};
  long long taps[3] = {1, 1, 1};
  for (int d = 0; d < s.dims; ++d) taps[d] = s.kernel;
  double acc = kKind == PoolKind::Max ? -INFINITY : 0.0;
  for (long long a = 0; a < taps[0]; ++a) {
    for (long long b = 0; b < taps[1]; ++b) {
      for (long long c = 0; c < taps[2]; ++c) {
        const long long tap[3] = {a, b, c};
        long long pos[3];
        bool inside = true;
        for (int d = 0; d < 3; ++d) {
          pos[d] = d < s.dims ? at[d] * s.stride - s.padding + tap[d] * s.dilation : 0;
          inside = inside && pos[d] >= 0 && pos[d] < s.in[d];
        }
        if (!inside) continue;
        double x = (double)(float)input[(pos[0] * s.in[1] + pos[1]) * s.in[2] + pos[2]];
        acc = kKind == PoolKind::Max ? fmax(acc, x) : acc + x;
      }
    }
  }
  output[o] = (KB_T)(kKind == PoolKind::Max ? acc : acc / (double)(taps[0] * taps[1] * taps[2]));
}

template <PoolKind kKind>
void launchPoolReference(const KB_T* input, KB_T* output, PoolShape s) {
  long long outputs = s.out[0] * s.out[1] * s.out[2];
  poolReference<kKind><<<(unsigned)((outputs + 255) / 256), 256>>>(input, output, s);
}
