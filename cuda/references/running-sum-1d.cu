// Reference for running-sum-1d: one thread per output sums the window input[i − W/2 … i + W/2] that lies inside the
// signal, in double (PyTorch's conv1d of a ones filter with padding W/2, zero padding outside). KB_T is the element
// type. W comes before the output, as in Tensara's signature.
extern "C" __global__ void runningSumReference(const KB_T* input, KB_T* output, long long n, long long w) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long first = max(0ll, i - w / 2), last = min(n - 1, i + w / 2);
  double sum = 0.0;
  for (long long j = first; j <= last; ++j) sum += (double)(float)input[j];
  output[i] = (KB_T)sum;
}

extern "C" void reference(const KB_T* input, size_t W, KB_T* output, size_t N) {
  runningSumReference<<<(unsigned)((N + 255) / 256), 256>>>(input, output, (long long)N, (long long)W);
}
