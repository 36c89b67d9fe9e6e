// Reference for edge-detect, in double: first each thread takes the largest gradient magnitude of its strided share of
// the pixels and merges it into the image's with one atomicMax (a non-negative double orders as its bits do); then
// one thread per pixel writes its magnitude · 255 / that maximum (the magnitude itself, 0, where the maximum is 0).
// Border pixels have magnitude 0. KB_T is the element type.
#include <cuda_runtime.h>
#include <math.h>

static const unsigned kThreads = 256;
static const long long kPerThread = 16;  // pixels per thread of the maximum, about

__device__ double magnitude(const KB_T* in, long long h, long long w, long long p) {
  long long r = p / w, c = p % w;
  if (r == 0 || c == 0 || r == h - 1 || c == w - 1) return 0.0;
  double gx = ((double)(float)in[p + 1] - (double)(float)in[p - 1]) / 2.0;
  double gy = ((double)(float)in[p + w] - (double)(float)in[p - w]) / 2.0;
  return sqrt(gx * gx + gy * gy);
}

extern "C" __global__ void maxMagnitudeReference(const KB_T* in, long long h, long long w, unsigned long long* maxBits) {
  double largest = 0.0;
  for (long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x; p < h * w; p += (long long)gridDim.x * blockDim.x) {
    largest = fmax(largest, magnitude(in, h, w, p));
  }
  atomicMax(maxBits, (unsigned long long)__double_as_longlong(largest));
}

extern "C" __global__ void scaleReference(const KB_T* in, KB_T* out, long long h, long long w, const unsigned long long* maxBits) {
  long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (p >= h * w) return;
  double largest = __longlong_as_double((long long)*maxBits);
  double m = magnitude(in, h, w, p);
  out[p] = (KB_T)(largest > 0.0 ? m / largest * 255.0 : m);
}

extern "C" void reference(const KB_T* input_image, KB_T* output_image, size_t height, size_t width) {
  long long h = (long long)height, w = (long long)width, pixels = h * w;
  unsigned long long* maxBits = nullptr;
  cudaMalloc(&maxBits, sizeof(unsigned long long));
  cudaMemset(maxBits, 0, sizeof(unsigned long long));
  maxMagnitudeReference<<<(unsigned)((pixels + kThreads * kPerThread - 1) / (kThreads * kPerThread)), kThreads>>>(input_image, h, w, maxBits);
  scaleReference<<<(unsigned)((pixels + kThreads - 1) / kThreads), kThreads>>>(input_image, output_image, h, w, maxBits);
  cudaFree(maxBits);
}
