// Normalising each row of a row-major matrix by a statistic of the row (rms-norm, l1-norm, l2-norm, log-softmax),
// one block per row: 16-byte loads push every element into a reduction operator's state per thread (Norm::Op,
// reduction.cuh), a shuffle and shared-memory merge gives the row's state to the whole block, and a second pass
// (mostly hitting L1/L2) writes Norm(state, N)(x) for each element.
#pragma once
#include "reduction.cuh"

namespace row_norm {

template <class Norm>
__global__ void normalizeRows(const float* X, float* Y, size_t N) {
  using Op = typename Norm::Op;
  const float* x = X + blockIdx.x * N;
  typename Op::State s = Op::identity();
  reduction::forEachOwned(x, N, threadIdx.x, blockDim.x, [&](float v, size_t i) { s = Op::push(s, v, i); });
  const Norm norm(reduction::blockMerge<Op>(s), N);
  reduction::mapOwned(x, Y + blockIdx.x * N, N, threadIdx.x, blockDim.x, [=](float v, size_t) { return norm(v); });
}

// Y = each of the `rows` rows of X normalised by Norm.
template <class Norm>
void normalizeEachRow(const float* X, float* Y, size_t rows, size_t N) {
  // Long rows get more threads so that more loads are in flight per row.
  unsigned threads = N >= 8192 ? 512 : 256;
  normalizeRows<Norm><<<(unsigned)rows, threads>>>(X, Y, N);
}

}  // namespace row_norm
