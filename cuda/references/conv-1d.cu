// Reference for conv-1d: one thread per output, the K taps summed in double. Same-size output with zero padding
// of K/2 on each side (PyTorch's conv1d with padding K/2, a cross-correlation): C[i] = sum_j A[i + j - K/2] * B[j].
// KB_T is the element type.
__device__ double toDouble(KB_T x) { return (double)(float)x; }

extern "C" __global__ void conv1dReference(const KB_T* A, const KB_T* B, KB_T* C, long long n, long long k) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long radius = k / 2;
  // Only the taps whose input lies inside the signal: the zero padding contributes nothing.
  long long first = max(0ll, radius - i), last = min(k, n - i + radius);
  double sum = 0.0;
  for (long long j = first; j < last; ++j) sum += toDouble(A[i + j - radius]) * toDouble(B[j]);
  C[i] = (KB_T)sum;
}

extern "C" void reference(const KB_T* A, const KB_T* B, KB_T* C, size_t N, size_t K) {
  conv1dReference<<<(unsigned)((N + 255) / 256), 256>>>(A, B, C, (long long)N, (long long)K);
}
