// Tensor-core GEMM for 16-bit inputs (__half, __nv_bfloat16) accumulating in fp32, through WMMA: a 128×128 tile
// of C per block of 8 warps, each warp owning 64×32 of it (4×2 fragments of 16×16). K advances in 32-deep slices,
// double-buffered in shared memory: the next slice is copied asynchronously while the current one is multiplied.
// Any M, N, K: slices that cross the edge of a matrix are zero-filled, and only elements inside C are written.
#pragma once
#include <cuda_runtime.h>
#include <mma.h>
#include "gemm_common.cuh"

namespace gemm {
namespace wmma16 {

namespace wmma = nvcuda::wmma;

constexpr int BM = 128, BN = 128, BK = 32;
constexpr int WARPS_M = 2, WARPS_N = 4, THREADS = 32 * WARPS_M * WARPS_N;
constexpr int FRAG = 16;                                  // WMMA shape 16×16×16
constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N;       // 64×32 of C per warp
constexpr int FM = WM / FRAG, FN = WN / FRAG;             // 4×2 fragments per warp
constexpr int CHUNK = 8;                                  // 16-bit elements per 16-byte copy
// Row padding of the shared tiles: rows stay 16-byte aligned for the copies and land on different banks.
constexpr int PAD = 8;
constexpr int A_LD = BK + PAD;

__device__ __forceinline__ void copyAsync16(void* sharedDst, const void* globalSrc, int srcBytes) {
  // Copies srcBytes (0..16) and zero-fills the rest of the 16 bytes.
  unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(sharedDst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(globalSrc), "r"(srcBytes));
}
__device__ __forceinline__ void commitAsync() { asm volatile("cp.async.commit_group;\n" ::); }
template <int PENDING>
__device__ __forceinline__ void waitAsync() { asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING)); }

// Copies the ROWS×COLS window at (row0, col0) of a rows×cols row-major matrix (leading dimension ld) into shared
// memory (leading dimension LD), zero-filling whatever lies outside the matrix. With `async`, 16-byte
// asynchronous copies (every row must start on a 16-byte boundary); otherwise element by element.
template <int ROWS, int COLS, int LD, class T>
__device__ __forceinline__ void copyTile(T* dst, const T* __restrict__ src, int ld, int row0, int col0, int rows,
                                         int cols, bool async) {
  constexpr int CHUNKS_PER_ROW = COLS / CHUNK;
  for (int i = threadIdx.x; i < ROWS * CHUNKS_PER_ROW; i += THREADS) {
    int r = i / CHUNKS_PER_ROW, col = (i % CHUNKS_PER_ROW) * CHUNK;
    int gr = row0 + r, gc = col0 + col;
    int valid = gr < rows ? min(CHUNK, max(0, cols - gc)) : 0;
    T* d = dst + r * LD + col;
    const T* s = src + (size_t)gr * ld + gc;
    if (async) {
      copyAsync16(d, valid > 0 ? s : src, valid * (int)sizeof(T));
    } else {
      for (int e = 0; e < CHUNK; ++e) d[e] = e < valid ? s[e] : fromFloat<T>(0.0f);
    }
  }
}

// Where the B operand's slice lives in shared memory and how WMMA reads it.
template <class BLayout> struct BTile;

// K×N row-major B: a BK×BN tile, read as a row-major matrix_b.
template <> struct BTile<RowMajorB> {
  static constexpr int ROWS = BK, LD = BN + PAD;
  using FragmentLayout = wmma::row_major;
  __host__ __device__ static size_t rowLength(size_t n, size_t /*k*/) { return n; }
  template <class T>
  __device__ static void load(T* dst, const T* b, int n, int k, int colBase, int kk, bool async) {
    copyTile<BK, BN, LD>(dst, b, n, kk, colBase, k, n, async);
  }
  __device__ static int offset(int kStep, int col) { return kStep * LD + col; }
};

// N×K row-major W with B = Wᵀ: a BN×BK tile of W, which is B's slice read as a column-major matrix_b.
template <> struct BTile<TransposedB> {
  static constexpr int ROWS = BN, LD = BK + PAD;
  using FragmentLayout = wmma::col_major;
  __host__ __device__ static size_t rowLength(size_t /*n*/, size_t k) { return k; }
  template <class T>
  __device__ static void load(T* dst, const T* w, int n, int k, int colBase, int kk, bool async) {
    copyTile<BN, BK, LD>(dst, w, k, colBase, kk, n, k, async);
  }
  __device__ static int offset(int kStep, int col) { return col * LD + kStep; }
};

template <class T, class BLayout>
struct Shared {
  static constexpr int A_STAGE = BM * A_LD, B_STAGE = BTile<BLayout>::ROWS * BTile<BLayout>::LD;
  static constexpr int PIPELINE_BYTES = 2 * (A_STAGE + B_STAGE) * (int)sizeof(T);
  // After the main loop the same memory holds one 16×16 fp32 fragment per warp for the epilogue.
  static constexpr int EPILOGUE_BYTES = WARPS_M * WARPS_N * FRAG * FRAG * (int)sizeof(float);
  static constexpr int BYTES = PIPELINE_BYTES > EPILOGUE_BYTES ? PIPELINE_BYTES : EPILOGUE_BYTES;
};

template <class T, class BLayout, class Epilogue>
__global__ void __launch_bounds__(THREADS) wmmaKernel(const T* __restrict__ a, const T* __restrict__ b,
                                                      T* __restrict__ c, int m, int n, int k, bool asyncA,
                                                      bool asyncB, bool wideStores, Epilogue epilogue) {
  using Tile = BTile<BLayout>;
  using Smem = Shared<T, BLayout>;
  __shared__ __align__(128) unsigned char smem[Smem::BYTES];
  T* as = reinterpret_cast<T*>(smem);
  T* bs = as + 2 * Smem::A_STAGE;

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warpRow = (warp / WARPS_N) * WM, warpCol = (warp % WARPS_N) * WN;
  const int rowBase = blockIdx.y * BM, colBase = blockIdx.x * BN;

  wmma::fragment<wmma::accumulator, FRAG, FRAG, FRAG, float> acc[FM][FN];
#pragma unroll
  for (int i = 0; i < FM; ++i)
#pragma unroll
    for (int j = 0; j < FN; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

  auto loadSlice = [&](int stage, int kk) {
    copyTile<BM, BK, A_LD>(as + stage * Smem::A_STAGE, a, k, rowBase, kk, m, k, asyncA);
    Tile::load(bs + stage * Smem::B_STAGE, b, n, k, colBase, kk, asyncB);
    commitAsync();
  };

  const int slices = (k + BK - 1) / BK;
  if (slices > 0) loadSlice(0, 0);
  for (int t = 0; t < slices; ++t) {
    // The stage written here was last read in iteration t - 1, which ended with a barrier.
    if (t + 1 < slices) {
      loadSlice((t + 1) % 2, (t + 1) * BK);
      waitAsync<1>();
    } else {
      waitAsync<0>();
    }
    __syncthreads();
    const T* at = as + (t % 2) * Smem::A_STAGE;
    const T* bt = bs + (t % 2) * Smem::B_STAGE;
#pragma unroll
    for (int kStep = 0; kStep < BK; kStep += FRAG) {
      wmma::fragment<wmma::matrix_a, FRAG, FRAG, FRAG, T, wmma::row_major> fa[FM];
      wmma::fragment<wmma::matrix_b, FRAG, FRAG, FRAG, T, typename Tile::FragmentLayout> fb[FN];
#pragma unroll
      for (int i = 0; i < FM; ++i) wmma::load_matrix_sync(fa[i], at + (warpRow + i * FRAG) * A_LD + kStep, A_LD);
#pragma unroll
      for (int j = 0; j < FN; ++j) wmma::load_matrix_sync(fb[j], bt + Tile::offset(kStep, warpCol + j * FRAG), Tile::LD);
#pragma unroll
      for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int j = 0; j < FN; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    __syncthreads();
  }

  // Epilogue: each fragment goes through the warp's scratch so that every lane owns 8 consecutive outputs of a row.
  float* scratch = reinterpret_cast<float*>(smem) + warp * FRAG * FRAG;
  const int r = lane / 2, c0 = (lane % 2) * CHUNK;
#pragma unroll
  for (int i = 0; i < FM; ++i) {
#pragma unroll
    for (int j = 0; j < FN; ++j) {
      wmma::store_matrix_sync(scratch, acc[i][j], FRAG, wmma::mem_row_major);
      __syncwarp();
      const int row = rowBase + warpRow + i * FRAG + r, col = colBase + warpCol + j * FRAG + c0;
      const float* values = scratch + r * FRAG + c0;
      if (row < m) {
        T* dst = c + (size_t)row * n + col;
        if (wideStores && col + CHUNK <= n) {
          alignas(16) T out[CHUNK];
#pragma unroll
          for (int e = 0; e < CHUNK; ++e) out[e] = fromFloat<T>(epilogue(values[e], row, col + e));
          *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(out);
        } else {
          for (int e = 0; e < CHUNK && col + e < n; ++e) dst[e] = fromFloat<T>(epilogue(values[e], row, col + e));
        }
      }
      __syncwarp();
    }
  }
}

}  // namespace wmma16

/** C[m×n] = epilogue(A[m×k] · B[k×n]) for 16-bit T, fp32 accumulation, on the legacy default stream. */
template <class T, class BLayout, class Epilogue = StoreAccumulator>
void gemmWmma(const T* a, const T* b, T* c, size_t m, size_t n, size_t k, Epilogue epilogue = {}) {
  using namespace wmma16;
  static_assert(sizeof(T) == 2, "gemmWmma takes __half or __nv_bfloat16");
  // 16-byte copies and stores need rows that start on 16-byte boundaries.
  const bool asyncA = k % CHUNK == 0 && aligned16(a);
  const bool asyncB = BTile<BLayout>::rowLength(n, k) % CHUNK == 0 && aligned16(b);
  const bool wideStores = n % CHUNK == 0 && aligned16(c);
  dim3 grid((unsigned)((n + BN - 1) / BN), (unsigned)((m + BM - 1) / BM));
  wmmaKernel<T, BLayout><<<grid, THREADS>>>(a, b, c, (int)m, (int)n, (int)k, asyncA, asyncB, wideStores, epilogue);
}

}  // namespace gemm
