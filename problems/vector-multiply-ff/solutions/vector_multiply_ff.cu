// c[i] = a[i]·b[i] mod p, p = 2^31 - 1. Each thread handles four elements with 16-byte loads and stores, and reduces
// with the Mersenne identity 2^31 ≡ 1 (mod p): x = hi·2^31 + lo ≡ hi + lo, two folds and one conditional subtraction
// instead of a 64-bit division.
#include <cuda_runtime.h>
#include <stdint.h>

__device__ __forceinline__ uint32_t mulModMersenne31(uint32_t a, uint32_t b) {
  const uint32_t P = 2147483647u;
  uint64_t x = (uint64_t)a * b;                       // < 2^62
  uint64_t r = (x & P) + (x >> 31);                   // <= 2p
  r = (r & P) + (r >> 31);                            // <= p + 1
  return (uint32_t)(r >= P ? r - P : r);
}

__global__ void vectorMultiplyFfKernel(const uint32_t* __restrict__ a, const uint32_t* __restrict__ b,
                                       uint32_t* __restrict__ c, size_t n) {
  const size_t quads = n / 4;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t q = blockIdx.x * (size_t)blockDim.x + threadIdx.x; q < quads; q += stride) {
    uint4 x = reinterpret_cast<const uint4*>(a)[q];
    uint4 y = reinterpret_cast<const uint4*>(b)[q];
    reinterpret_cast<uint4*>(c)[q] =
        make_uint4(mulModMersenne31(x.x, y.x), mulModMersenne31(x.y, y.y), mulModMersenne31(x.z, y.z), mulModMersenne31(x.w, y.w));
  }
  // The last n mod 4 elements, one thread each.
  size_t tail = quads * 4 + blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (tail < n) c[tail] = mulModMersenne31(a[tail], b[tail]);
}

extern "C" void solution(const uint32_t* d_input1, const uint32_t* d_input2, uint32_t* d_output, size_t n) {
  const int threads = 256;
  size_t blocks = (n / 4 + threads - 1) / threads;
  if (blocks < 1) blocks = 1;
  if (blocks > 65535) blocks = 65535;
  vectorMultiplyFfKernel<<<(unsigned)blocks, threads>>>(d_input1, d_input2, d_output, n);
}
