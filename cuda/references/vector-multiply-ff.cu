// Reference for vector-multiply-ff: one thread per element, c[i] = a[i]·b[i] mod (2^31 - 1). KB_T is uint32_t.
#include "finite-field.cuh"

__global__ void vectorMultiplyFfReference(const KB_T* a, const KB_T* b, KB_T* c, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) c[i] = (KB_T)fieldMul(a[i], b[i], kMersenne31);
}

extern "C" void reference(const KB_T* a, const KB_T* b, KB_T* c, size_t n) {
  vectorMultiplyFfReference<<<(unsigned)((n + 255) / 256), 256>>>(a, b, c, n);
}
