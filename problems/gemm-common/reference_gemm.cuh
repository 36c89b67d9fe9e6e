// Reference-only code (never used by solutions): a shared-memory tiled GEMM accumulating in double, for the
// references in cuda/references/ of the GEMM and matrix-product problems, which are compiled with -DKB_T=<element type>.
// A 64×64 tile of C per block of 256 threads, each thread accumulating 4×4 outputs (strided by 16 so that reads
// and writes stay coalesced) from 16-deep slices of A and B converted to double on load. Any M, N, K; every slice
// of K is read, whatever the operands hold.
#pragma once

namespace referenceGemm {

constexpr int TILE = 64, DEPTH = 16, SIDE = 16, PER_THREAD = TILE / SIDE, THREADS = SIDE * SIDE;

template <class T> __device__ __forceinline__ double toDouble(T x) { return (double)(float)x; }
__device__ __forceinline__ double toDouble(double x) { return x; }

// Which elements of the operands the product reads: all of them, or (Triangle) the lower or upper triangles of
// square A and B, the rest read as 0 (torch.tril / torch.triu of both operands before the product).
struct Everything {
  __device__ bool keepA(size_t /*row*/, size_t /*q*/) const { return true; }
  __device__ bool keepB(size_t /*q*/, size_t /*col*/) const { return true; }
};

template <bool LOWER>
struct Triangle {
  __device__ bool keepA(size_t row, size_t q) const { return LOWER ? q <= row : q >= row; }
  __device__ bool keepB(size_t q, size_t col) const { return LOWER ? q >= col : q <= col; }
};

// The accumulated value as it is: what a plain product writes.
struct Unchanged {
  __device__ double operator()(double acc, size_t /*row*/, size_t /*col*/) const { return acc; }
};

// scale · swish(acc + bias[col]), swish(z) = z·σ(z), in double; no bias where bias is null (the references of
// matmul-swish and matmul-swish-scaling).
struct SwishScaled {
  const KB_T* bias;
  double scale;
  __device__ double operator()(double acc, size_t /*row*/, size_t col) const {
    const double z = bias ? acc + toDouble(bias[col]) : acc;
    return scale * z / (1.0 + exp(-z));
  }
};

// C[m×n] = epilogue(A[m×k] · B[k×n], row, col), A row-major. B is row-major (K×N), or with TRANSPOSED_B the rows
// of W (N×K row-major) with B = Wᵀ. A, B and C may be of the element type or double.
template <bool TRANSPOSED_B, class TA, class TB, class TC, class Keep, class Epilogue>
__global__ void tiledGemm(const TA* a, const TB* b, TC* c, size_t m, size_t n, size_t k, Keep keep, Epilogue epilogue) {
  __shared__ double as[DEPTH][TILE];  // as[q][r] = A[rowBase + r][kk + q]
  __shared__ double bs[DEPTH][TILE];  // bs[q][j] = B[kk + q][colBase + j]
  const int tx = threadIdx.x % SIDE, ty = threadIdx.x / SIDE;
  const size_t rowBase = blockIdx.y * (size_t)TILE, colBase = blockIdx.x * (size_t)TILE;
  double acc[PER_THREAD][PER_THREAD] = {};
  for (size_t kk = 0; kk < k; kk += DEPTH) {
    for (int l = threadIdx.x; l < TILE * DEPTH; l += THREADS) {
      // Matrices stored along k (A, W) are read with consecutive threads on consecutive k; B along its rows.
      const int r = l / DEPTH, q = l % DEPTH;
      const size_t gk = kk + q;
      as[q][r] = (rowBase + r < m && gk < k && keep.keepA(rowBase + r, gk)) ? toDouble(a[(rowBase + r) * k + gk]) : 0.0;
      if (TRANSPOSED_B) {
        bs[q][r] = (colBase + r < n && gk < k && keep.keepB(gk, colBase + r)) ? toDouble(b[(colBase + r) * k + gk]) : 0.0;
      } else {
        const int bq = l / TILE, j = l % TILE;
        const bool inside = kk + bq < k && colBase + j < n && keep.keepB(kk + bq, colBase + j);
        bs[bq][j] = inside ? toDouble(b[(kk + bq) * n + colBase + j]) : 0.0;
      }
    }
    __syncthreads();
    for (int q = 0; q < DEPTH; ++q)
      for (int i = 0; i < PER_THREAD; ++i)
        for (int j = 0; j < PER_THREAD; ++j) acc[i][j] += as[q][ty + SIDE * i] * bs[q][tx + SIDE * j];
    __syncthreads();
  }
  for (int i = 0; i < PER_THREAD; ++i) {
    const size_t row = rowBase + ty + SIDE * i;
    for (int j = 0; j < PER_THREAD; ++j) {
      const size_t col = colBase + tx + SIDE * j;
      if (row < m && col < n) c[row * n + col] = (TC)epilogue(acc[i][j], row, col);
    }
  }
}

template <bool TRANSPOSED_B, class TA, class TB, class TC, class Epilogue = Unchanged, class Keep = Everything>
void launchTiledGemm(const TA* a, const TB* b, TC* c, size_t m, size_t n, size_t k, Epilogue epilogue = {}, Keep keep = {}) {
  const dim3 grid((unsigned)((n + TILE - 1) / TILE), (unsigned)((m + TILE - 1) / TILE));
  tiledGemm<TRANSPOSED_B><<<grid, THREADS>>>(a, b, c, m, n, k, keep, epilogue);
}

}  // namespace referenceGemm
