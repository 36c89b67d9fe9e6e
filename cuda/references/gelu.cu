// Reference for gelu in Tensara's tanh form, 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))): one thread per
// element, in double. KB_T is the element type.
extern "C" __global__ void geluReference(const KB_T* input, KB_T* output, size_t count) {
  const double sqrtTwoOverPi = 0.79788456080286535588;
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= count) return;
  double x = (double)(float)input[i];
  output[i] = (KB_T)(0.5 * x * (1.0 + tanh(sqrtTwoOverPi * (x + 0.044715 * x * x * x))));
}

extern "C" void reference(const KB_T* input, KB_T* output, size_t n, size_t m) {
  size_t count = n * m;
  geluReference<<<(unsigned)((count + 255) / 256), 256>>>(input, output, count);
}
