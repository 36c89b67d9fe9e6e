// Reference for vector-addition: one thread per element, accumulated in double. KB_T is the element type.
extern "C" __global__ void vectorAddReference(const KB_T* a, const KB_T* b, KB_T* c, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) c[i] = (KB_T)((double)a[i] + (double)b[i]);
}

extern "C" void reference(const KB_T* a, const KB_T* b, KB_T* c, size_t n) {
  vectorAddReference<<<(unsigned)((n + 255) / 256), 256>>>(a, b, c, n);
}
