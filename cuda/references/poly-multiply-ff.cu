// Reference for poly-multiply-ff: one thread per output coefficient, c[k] = Σ_{i+j=k} a[i]·b[j] mod (2^31 - 1),
// reduced after every product and every sum. KB_T is uint32_t.
#include "finite-field.cuh"

__global__ void polyMultiplyFfReference(const KB_T* a, const KB_T* b, KB_T* c, size_t n) {
  size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (k >= 2 * n - 1) return;
  uint64_t sum = 0;
  for (size_t i = (k < n ? 0 : k - (n - 1)); i <= k && i < n; ++i) {
    sum = fieldAdd(sum, fieldMul(a[i], b[k - i], kMersenne31), kMersenne31);
  }
  c[k] = (KB_T)sum;
}

extern "C" void reference(const KB_T* a, const KB_T* b, KB_T* c, size_t n) {
  polyMultiplyFfReference<<<(unsigned)((2 * n - 1 + 255) / 256), 256>>>(a, b, c, n);
}
