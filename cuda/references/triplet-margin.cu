// Reference for triplet-margin: one warp per row triplet sums (a − p + eps)² and (a − n + eps)² in double, and adds
// max(0, d(a, p) − d(a, n) + margin) / B into one double total; one thread then writes it. eps = 1e-6 as in
// PyTorch's pairwise_distance.
#include <cuda_runtime.h>

static const double kEpsilon = 1e-6;
static const unsigned kWarpsPerBlock = 8;

__device__ double warpSum(double v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void tripletReference(const KB_T* anchor, const KB_T* positive, const KB_T* negative, size_t B, size_t E, double margin,
                                 double* total) {
  size_t row = blockIdx.x * (size_t)kWarpsPerBlock + threadIdx.x / 32;
  if (row >= B) return;  // the whole warp agrees
  double ap = 0.0, an = 0.0;
  for (size_t j = threadIdx.x % 32; j < E; j += 32) {
    size_t i = row * E + j;
    double a = (double)(float)anchor[i];
    double dp = a - (double)(float)positive[i] + kEpsilon;
    double dn = a - (double)(float)negative[i] + kEpsilon;
    ap += dp * dp;
    an += dn * dn;
  }
  ap = warpSum(ap);
  an = warpSum(an);
  if (threadIdx.x % 32 == 0) atomicAdd(total, fmax(0.0, sqrt(ap) - sqrt(an) + margin) / (double)B);
}

__global__ void writeTotal(const double* total, KB_T* loss) { *loss = (KB_T)*total; }

extern "C" void reference(const KB_T* anchor, const KB_T* positive, const KB_T* negative, KB_T* loss, size_t B, size_t E, float margin) {
  double* total = nullptr;
  cudaMalloc(&total, sizeof(double));
  cudaMemset(total, 0, sizeof(double));
  tripletReference<<<(unsigned)((B + kWarpsPerBlock - 1) / kWarpsPerBlock), kWarpsPerBlock * 32>>>(anchor, positive, negative, B, E,
                                                                                                     (double)margin, total);
  writeTotal<<<1, 1>>>(total, loss);
  cudaFree(total);
}
