// Reference for layer-norm: each of B rows of N = F*D1*D2 elements is normalised with its own mean and (biased)
// variance, two-pass in double: sum(x) gives the mean, then sum((x - mean)^2) the variance; then one thread per
// element writes (x - mean) / sqrt(var + 1e-5) * gamma + beta. Row sums are accumulated with one double atomicAdd
// per thread and row.
static const double kEpsilon = 1e-5;
static const size_t kPerThread = 16;  // elements of a row per thread, about
static const unsigned kThreads = 256;

// sums[row] += x over the row, or (x - mean)^2 when the row totals of x are given (mean = total / N).
__global__ void rowSumsReference(const KB_T* X, size_t B, size_t N, const double* totals, double* sums) {
  for (size_t row = blockIdx.y; row < B; row += gridDim.y) {
    double mean = totals ? totals[row] / (double)N : 0.0;
    double acc = 0.0;
    for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < N; j += (size_t)gridDim.x * blockDim.x) {
      double v = (double)(float)X[row * N + j];
      acc += totals ? (v - mean) * (v - mean) : v;
    }
    atomicAdd(&sums[row], acc);
  }
}

__global__ void normalizeReference(const KB_T* X, const KB_T* gamma, const KB_T* beta, KB_T* Y, size_t B, size_t N,
                                   const double* totals, const double* squares) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= B * N) return;
  size_t row = i / N, j = i % N;
  double mean = totals[row] / (double)N;
  double normalized = ((double)(float)X[i] - mean) / sqrt(squares[row] / (double)N + kEpsilon);
  Y[i] = (KB_T)(normalized * (double)(float)gamma[j] + (double)(float)beta[j]);
}

extern "C" void reference(const KB_T* X, const KB_T* gamma, const KB_T* beta, KB_T* Y, size_t B, size_t F, size_t D1,
                          size_t D2) {
  size_t N = F * D1 * D2;
  double* sums = nullptr;  // B row totals of x, then B row sums of squared deviations
  cudaMalloc(&sums, 2 * B * sizeof(double));
  cudaMemset(sums, 0, 2 * B * sizeof(double));
  dim3 grid((unsigned)((N + kThreads * kPerThread - 1) / (kThreads * kPerThread)), (unsigned)(B < 65535 ? B : 65535));
  rowSumsReference<<<grid, kThreads>>>(X, B, N, nullptr, sums);
  rowSumsReference<<<grid, kThreads>>>(X, B, N, sums, sums + B);
  normalizeReference<<<(unsigned)((B * N + kThreads - 1) / kThreads), kThreads>>>(X, gamma, beta, Y, B, N, sums, sums + B);
  cudaFree(sums);
}
