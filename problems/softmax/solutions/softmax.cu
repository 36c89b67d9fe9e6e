// Softmax over one dimension with an online max/sum (OnlineSoftmax in reduction.cuh; one pass for the statistics,
// one to write): a warp per contiguous row with 16-byte loads and stores when the dimension is the last one,
// otherwise blocks of 32 adjacent columns × 8 threads that split each column. The second pass re-reads a slice the
// first pass just brought into cache.
#include "../../reduction-common/reduction.cuh"

using namespace reduction;

__global__ void __launch_bounds__(kRowsPerBlock * kWarp) softmaxRows(const float* in, float* out, size_t rows, size_t size) {
  size_t row = rowOfWarp();
  if (row >= rows) return;
  const float* x = in + row * size;
  OnlineSoftmax::State s = rowState<OnlineSoftmax>(x, size);
  float scale = 1.0f / s.sum;
  mapOwned(x, out + row * size, size, laneId(), kWarp, [=](float v, size_t) { return __expf(v - s.max) * scale; });
}

__global__ void __launch_bounds__(kColumnSplit * kWarp) softmaxColumns(const float* in, float* out, SliceLayout l, size_t tiles) {
  Column c = columnOfThread(l, tiles);
  OnlineSoftmax::State s = columnState<OnlineSoftmax>(in, l, c);
  if (!c.active) return;
  float scale = 1.0f / s.sum;
  for (size_t k = threadIdx.y; k < l.size; k += kColumnSplit) {
    size_t i = c.first + k * l.inner;
    out[i] = __expf(in[i] - s.max) * scale;
  }
}

extern "C" void solution(const float* input, int dim, float* output, const size_t* shape, size_t ndim) {
  SliceLayout l = sliceLayoutFromDevice(dim, shape, ndim);
  if (l.inner == 1) {
    softmaxRows<<<blocksFor(l.outer, kRowsPerBlock), kRowsPerBlock * kWarp>>>(input, output, l.outer, l.size);
  } else {
    ColumnLaunch launch = columnLaunch(l);
    softmaxColumns<<<launch.blocks, launch.block>>>(input, output, l, launch.tiles);
  }
}
