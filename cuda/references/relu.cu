// Reference for relu: one thread per element, in double. KB_T is the element type.
extern "C" __global__ void reluReference(const KB_T* input, KB_T* output, size_t count) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= count) return;
  double x = (double)(float)input[i];
  output[i] = (KB_T)(x > 0.0 ? x : 0.0);
}

extern "C" void reference(const KB_T* input, KB_T* output, size_t n, size_t m) {
  size_t count = n * m;
  reluReference<<<(unsigned)((count + 255) / 256), 256>>>(input, output, count);
}
