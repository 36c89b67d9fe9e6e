// Pieces shared by the GEMM family's example solutions: element conversions, the two layouts of the B operand
// and the epilogues applied to each accumulated output element.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

namespace gemm {

__device__ __forceinline__ float toFloat(float x) { return x; }
__device__ __forceinline__ float toFloat(__half x) { return __half2float(x); }
__device__ __forceinline__ float toFloat(__nv_bfloat16 x) { return __bfloat162float(x); }

template <class T> __device__ __forceinline__ T fromFloat(float x);
template <> __device__ __forceinline__ float fromFloat<float>(float x) { return x; }
template <> __device__ __forceinline__ __half fromFloat<__half>(float x) { return __float2half_rn(x); }
template <> __device__ __forceinline__ __nv_bfloat16 fromFloat<__nv_bfloat16>(float x) { return __float2bfloat16_rn(x); }

/** 16-byte vector loads and stores need addresses on a 16-byte boundary. */
inline bool aligned16(const void* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; }

// How the B operand of C[M×N] = A[M×K] · B[K×N] is stored:
// RowMajorB: B itself, K×N row-major: B[q][j] is b[q * N + j] (matrix-multiplication, square-matmul);
// TransposedB: W, N×K row-major, with B = Wᵀ: B[q][j] is w[j * K + q] (gemm-relu's weights).
struct RowMajorB {};
struct TransposedB {};

// Which part of the square operands a product reads (sgemm_tiled.cuh), for C[i][j] = Σ_q A[i][q]·B[q][j]:
// Dense: all of them, every slice of K.
// Triangle<LOWER>: the lower triangles (A[i][q] with q ≤ i, B[q][j] with q ≥ j), upper ones without LOWER; the
// elements outside are read as 0 whatever the matrices hold there. A block's tile of C (rows rowBase …, columns
// colBase …) then needs only the slices of K from colBase up to its last row (lower), or from rowBase up to its
// last column (upper); a tile wholly outside C's triangle gets an empty range and writes zeros.
struct Dense {
  static constexpr bool kDense = true;
  __device__ static int kBegin(int /*rowBase*/, int /*colBase*/) { return 0; }
  __device__ static int kEnd(int /*rowBase*/, int /*colBase*/, int /*rows*/, int /*cols*/, int k) { return k; }
  __device__ static bool keepA(int /*row*/, int /*q*/) { return true; }
  __device__ static bool keepB(int /*q*/, int /*col*/) { return true; }
};

template <bool LOWER>
struct Triangle {
  static constexpr bool kDense = false;
  __device__ static int kBegin(int rowBase, int colBase) { return LOWER ? colBase : rowBase; }
  __device__ static int kEnd(int rowBase, int colBase, int rows, int cols, int k) { return min(k, LOWER ? rowBase + rows : colBase + cols); }
  __device__ static bool keepA(int row, int q) { return LOWER ? q <= row : q >= row; }
  __device__ static bool keepB(int q, int col) { return LOWER ? q >= col : q <= col; }
};

// Epilogues: what is written for the accumulated value of C[row][col].
struct StoreAccumulator {
  __device__ __forceinline__ float operator()(float acc, int /*row*/, int /*col*/) const { return acc; }
};

template <class T>
struct BiasRelu {
  const T* bias;  // one value per output column
  __device__ __forceinline__ float operator()(float acc, int /*row*/, int col) const { return fmaxf(acc + toFloat(bias[col]), 0.0f); }
};

__device__ __forceinline__ float sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }

// LeakyReLU(acc · factor[row][col], alpha), with factor row-major, as wide as C (gemm-multiply-leakyrelu).
struct MultiplyLeakyRelu {
  const float* factor;
  int n;  // columns of C and of factor
  float alpha;
  __device__ __forceinline__ float operator()(float acc, int row, int col) const {
    const float x = acc * factor[(size_t)row * n + col];
    return x >= 0.0f ? x : alpha * x;
  }
};

// scale · swish(acc + bias[col]), swish(z) = z·σ(z); no bias where bias is null (matmul-swish, matmul-swish-scaling).
struct SwishScaled {
  const float* bias;
  float scale;
  __device__ __forceinline__ float operator()(float acc, int /*row*/, int col) const {
    const float z = bias ? acc + bias[col] : acc;
    return scale * z * sigmoid(z);
  }
};

}  // namespace gemm
