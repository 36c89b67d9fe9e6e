// Example for ecc-point-negation: memory-bound, so each thread moves two points with 16-byte loads of xs and ys and
// 16-byte stores of the (x, -y) pairs, in a grid-stride loop. The inputs are field elements below p, so -y is p - y,
// or 0 for y = 0, without a division.
#include <cuda_runtime.h>
#include <stdint.h>

__device__ __forceinline__ uint64_t negate(uint64_t y, uint64_t p) { return y == 0 ? 0 : p - y; }

__global__ void negatePoints(const ulonglong2* xs, const ulonglong2* ys, uint64_t p, ulonglong2* out_xy, size_t pairs) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < pairs; i += (size_t)gridDim.x * blockDim.x) {
    ulonglong2 x = xs[i], y = ys[i];
    out_xy[2 * i] = make_ulonglong2(x.x, negate(y.x, p));
    out_xy[2 * i + 1] = make_ulonglong2(x.y, negate(y.y, p));
  }
}

// The last point of an odd n.
__global__ void negateLastPoint(const uint64_t* xs, const uint64_t* ys, uint64_t p, uint64_t* out_xy, size_t n) {
  out_xy[2 * (n - 1)] = xs[n - 1];
  out_xy[2 * (n - 1) + 1] = negate(ys[n - 1], p);
}

extern "C" void solution(const uint64_t* xs, const uint64_t* ys, uint64_t p, uint64_t* out_xy, size_t n) {
  size_t pairs = n / 2;
  if (pairs > 0) {
    int device, sms;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    size_t blocks = (pairs + 255) / 256;
    size_t maxBlocks = (size_t)sms * 8;
    negatePoints<<<(unsigned)(blocks < maxBlocks ? blocks : maxBlocks), 256>>>(
        (const ulonglong2*)xs, (const ulonglong2*)ys, p, (ulonglong2*)out_xy, pairs);
  }
  if (n % 2 == 1) negateLastPoint<<<1, 1>>>(xs, ys, p, out_xy, n);
}
