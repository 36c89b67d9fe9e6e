// 1-D running sum over a centred window of W (odd) with zero padding, from prefix sums: an inclusive scan of the
// input kept in double (scan.cuh with SumInDouble), then output[i] = P[min(i + h, N − 1)] − P[i − h − 1] (0 before
// the start), h = (W − 1) / 2. In double the difference of two prefixes is as accurate as the window's own sum,
// where float prefixes of up to 2^19 elements would lose most of Tensara's atol to rounding.
#include "../../reduction-common/scan.cuh"

using namespace reduction;

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads) windowSums(const double* prefix, float* output, size_t N, size_t h) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= N) return;
  double before = i > h ? prefix[i - h - 1] : 0.0;
  output[i] = (float)(prefix[min(i + h, N - 1)] - before);
}

extern "C" void solution(const float* input, size_t W, float* output, size_t N) {
  if (N == 0) return;
  double* prefix = scratch<double, 1>(N);  // slot 0 holds the scan's tile totals
  inclusiveScan<SumInDouble, double>(input, prefix, N);
  windowSums<<<blocksFor(N, kThreads), kThreads>>>(prefix, output, N, W / 2);
}
