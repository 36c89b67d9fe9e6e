// Reference for rms-norm: y = x / sqrt(mean(x^2) + 1e-5) over each row of N, in double. Each thread adds its
// strided part of a row's sum of squares into the row's total with one double atomicAdd; then one thread per
// element writes the output.
static const double kEpsilon = 1e-5;
static const size_t kPerThread = 16;  // elements of a row per thread, about
static const unsigned kThreads = 256;

__global__ void sumSquaresReference(const KB_T* X, size_t B, size_t N, double* sums) {
  for (size_t row = blockIdx.y; row < B; row += gridDim.y) {
    double acc = 0.0;
    for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < N; j += (size_t)gridDim.x * blockDim.x) {
      double v = (double)(float)X[row * N + j];
      acc += v * v;
    }
    atomicAdd(&sums[row], acc);
  }
}

__global__ void scaleReference(const KB_T* X, KB_T* Y, size_t B, size_t N, const double* sums) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= B * N) return;
  Y[i] = (KB_T)((double)(float)X[i] / sqrt(sums[i / N] / (double)N + kEpsilon));
}

extern "C" void reference(const KB_T* X, KB_T* Y, size_t B, size_t N) {
  double* sums = nullptr;
  cudaMalloc(&sums, B * sizeof(double));
  cudaMemset(sums, 0, B * sizeof(double));
  dim3 grid((unsigned)((N + kThreads * kPerThread - 1) / (kThreads * kPerThread)), (unsigned)(B < 65535 ? B : 65535));
  sumSquaresReference<<<grid, kThreads>>>(X, B, N, sums);
  scaleReference<<<(unsigned)((B * N + kThreads - 1) / kThreads), kThreads>>>(X, Y, B, N, sums);
  cudaFree(sums);
}
