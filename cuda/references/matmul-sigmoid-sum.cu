// Reference for matmul-sigmoid-sum: σ(A·B) into an M×N double matrix (the product accumulated in double, tiled, see
// the header), then summed in double: grid-stride partial sums, one double atomic per warp, one thread writing
// the total.
#include <cuda_runtime.h>
#include "../../problems/gemm-common/reference_gemm.cuh"

struct Sigmoid {
  __device__ double operator()(double acc, size_t /*row*/, size_t /*col*/) const { return 1.0 / (1.0 + exp(-acc)); }
};

__global__ void sumReference(const double* values, size_t count, double* total) {
  double sum = 0.0;
  for (size_t e = blockIdx.x * (size_t)blockDim.x + threadIdx.x; e < count; e += (size_t)gridDim.x * blockDim.x) sum += values[e];
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(total, sum);
}

__global__ void writeTotal(const double* total, KB_T* output) { *output = (KB_T)*total; }

extern "C" void reference(const KB_T* A, const KB_T* B, KB_T* output, size_t M, size_t N, size_t K) {
  double *sigmoids = nullptr, *total = nullptr;
  cudaMalloc(&sigmoids, M * N * sizeof(double));
  cudaMalloc(&total, sizeof(double));
  cudaMemset(total, 0, sizeof(double));
  referenceGemm::launchTiledGemm<false>(A, B, sigmoids, M, N, K, Sigmoid{});
  sumReference<<<256, 256>>>(sigmoids, M * N, total);
  writeTotal<<<1, 1>>>(total, output);
  cudaFree(sigmoids);
  cudaFree(total);
}
