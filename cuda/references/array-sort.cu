// Reference for array-sort: one thread per element computes its rank in the sorted order, the count of smaller
// elements plus the count of equal elements before it, and writes the element there. Ranks are a permutation, so
// every output element is written once. O(n²) comparisons: tens of milliseconds for Tensara's largest case.
#include <cuda_runtime.h>

__global__ void placeByRank(const KB_T* a, KB_T* b, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  const KB_T value = a[i];
  size_t rank = 0;
  for (size_t j = 0; j < n; ++j) rank += a[j] < value || (a[j] == value && j < i);
  b[rank] = value;
}

extern "C" void reference(const KB_T* a, KB_T* b, size_t n) {
  placeByRank<<<(unsigned)((n + 255) / 256), 256>>>(a, b, n);
}
