// Reference for ecc-point-negation: one thread per element of out_xy, out_xy[2i] = xs[i] and
// out_xy[2i + 1] = (p - ys[i]) mod p, as Tensara's reference reduces ys[i] first. KB_T is uint64_t.
#include "finite-field.cuh"

__global__ void eccPointNegationReference(const KB_T* xs, const KB_T* ys, uint64_t p, KB_T* out_xy, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= 2 * n) return;
  size_t point = i / 2;
  out_xy[i] = i % 2 == 0 ? xs[point] : (KB_T)fieldNeg(ys[point], p);
}

extern "C" void reference(const KB_T* xs, const KB_T* ys, uint64_t p, KB_T* out_xy, size_t n) {
  eccPointNegationReference<<<(unsigned)((2 * n + 255) / 256), 256>>>(xs, ys, p, out_xy, n);
}
