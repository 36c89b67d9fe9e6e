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

// Epilogues: what is written for the accumulated value of C[row][col].
struct StoreAccumulator {
  __device__ __forceinline__ float operator()(float acc, int /*col*/) const { return acc; }
};

template <class T>
struct BiasRelu {
  const T* bias;  // one value per output column
  __device__ __forceinline__ float operator()(float acc, int col) const { return fmaxf(acc + toFloat(bias[col]), 0.0f); }
};

}  // namespace gemm
