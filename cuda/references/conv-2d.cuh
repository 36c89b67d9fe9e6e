// The shared body of the 2-D convolution references (conv-2d, conv2d-relu-hardswish): one thread per output pixel,
// the Kh×Kw taps summed in double. Same-size output with zero padding of Kh/2 rows and Kw/2 columns (PyTorch's
// conv2d, a cross-correlation), all matrices row-major: C[r][c] = epilogue(sum_{u,v} A[r + u - Kh/2][c + v - Kw/2] *
// B[u][v]). KB_T is the element type.
#pragma once
#include <cuda_runtime.h>
#include <stddef.h>

__device__ inline double toDouble(KB_T x) { return (double)(float)x; }

template <class Epilogue>
__global__ void conv2dReference(const KB_T* A, const KB_T* B, KB_T* C, long long h, long long w, long long kh, long long kw) {
  long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  long long r = blockIdx.y * (long long)blockDim.y + threadIdx.y;
  if (r >= h || c >= w) return;
  long long rh = kh / 2, rw = kw / 2;
  // Only the taps whose input lies inside the image: the zero padding contributes nothing.
  long long firstU = max(0ll, rh - r), lastU = min(kh, h - r + rh);
  long long firstV = max(0ll, rw - c), lastV = min(kw, w - c + rw);
  double sum = 0.0;
  for (long long u = firstU; u < lastU; ++u) {
    long long row = (r + u - rh) * w + c - rw;
    for (long long v = firstV; v < lastV; ++v) sum += toDouble(A[row + v]) * toDouble(B[u * kw + v]);
  }
  C[r * w + c] = (KB_T)Epilogue{}(sum);
}

template <class Epilogue>
void launchConv2dReference(const KB_T* A, const KB_T* B, KB_T* C, size_t H, size_t W, size_t Kh, size_t Kw) {
  dim3 block(32, 8);
  dim3 grid((unsigned)((W + 31) / 32), (unsigned)((H + 7) / 8));
  conv2dReference<Epilogue><<<grid, block>>>(A, B, C, (long long)H, (long long)W, (long long)Kh, (long long)Kw);
}
