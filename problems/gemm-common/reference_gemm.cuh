// Reference-only code (never used by solutions): a shared-memory tiled GEMM accumulating in double, for
// cuda/references/square-matmul.cu and gemm-relu.cu, which are compiled with -DKB_T=<element type>.
// A 64×64 tile of C per block of 256 threads, each thread accumulating 4×4 outputs (strided by 16 so that reads
// and writes stay coalesced) from 16-deep slices of A and B converted to double on load. Any M, N, K.
#pragma once

namespace referenceGemm {

constexpr int TILE = 64, DEPTH = 16, SIDE = 16, PER_THREAD = TILE / SIDE, THREADS = SIDE * SIDE;

__device__ __forceinline__ double toDouble(KB_T x) { return (double)(float)x; }

// C[m×n] = epilogue(A[m×k] · B[k×n]), A row-major. B is row-major (K×N), or with TRANSPOSED_B the rows of
// W (N×K row-major) with B = Wᵀ.
template <bool TRANSPOSED_B, class Epilogue>
__global__ void tiledGemm(const KB_T* a, const KB_T* b, KB_T* c, size_t m, size_t n, size_t k, Epilogue epilogue) {
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
      as[q][r] = (rowBase + r < m && gk < k) ? toDouble(a[(rowBase + r) * k + gk]) : 0.0;
      if (TRANSPOSED_B) {
        bs[q][r] = (colBase + r < n && gk < k) ? toDouble(b[(colBase + r) * k + gk]) : 0.0;
      } else {
        const int bq = l / TILE, j = l % TILE;
        bs[bq][j] = (kk + bq < k && colBase + j < n) ? toDouble(b[(kk + bq) * n + colBase + j]) : 0.0;
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
      if (row < m && col < n) c[row * n + col] = (KB_T)epilogue(acc[i][j], col);
    }
  }
}

template <bool TRANSPOSED_B, class Epilogue>
void launchTiledGemm(const KB_T* a, const KB_T* b, KB_T* c, size_t m, size_t n, size_t k, Epilogue epilogue) {
  const dim3 grid((unsigned)((n + TILE - 1) / TILE), (unsigned)((m + TILE - 1) / TILE));
  tiledGemm<TRANSPOSED_B><<<grid, THREADS>>>(a, b, c, m, n, k, epilogue);
}

}  // namespace referenceGemm
