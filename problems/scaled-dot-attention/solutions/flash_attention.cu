// Scaled dot-product attention in the style of FlashAttention, all in fp32: output = softmax(Q Kᵀ / sqrt(E)) V per
// head, never materializing the S×S scores. A block of 4 warps owns 16 query rows of one head (4 per warp) and walks
// the keys in tiles of 32, staged in shared memory with their values. Each lane scores one key of the tile against
// its warp's 4 rows; the rows' running maximum and sum are updated (online softmax, rescaling what was accumulated),
// and the tile's weights, passed around the warp by shuffles, accumulate the value rows into registers, each lane
// owning E/32 output columns. Any sequence length and up to 65535 heads (B·H); head sizes up to 256 (Tensara's
// largest). A larger E is not supported: the output is left unwritten.
#include <cuda_runtime.h>

constexpr int kWarps = 4;
constexpr int kThreads = kWarps * 32;
constexpr int kRowsPerWarp = 4;
constexpr int kBlockRows = kWarps * kRowsPerWarp;  // query rows per block
constexpr int kKeys = 32;                          // keys per tile: one per lane

template <int D> constexpr size_t sharedBytes() {
  // Q tile, K tile with rows padded by one float (lane j reads row j: distinct banks), V tile.
  return sizeof(float) * (kBlockRows * D + kKeys * (D + 1) + kKeys * D);
}

__device__ __forceinline__ float warpMax(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

__device__ __forceinline__ float warpSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

// D: the head size rounded up to a multiple of 32; columns from E to D are zeros.
template <int D>
__global__ void __launch_bounds__(kThreads, 4) flashAttention(const float* __restrict__ Q, const float* __restrict__ K,
                                                           const float* __restrict__ V, float* __restrict__ output,
                                                           int s, int e, float scoreScale) {
  extern __shared__ float4 shared4[];  // float4: 16-byte aligned rows of the Q tile
  float* qTile = reinterpret_cast<float*>(shared4);
  float* kTile = qTile + kBlockRows * D;
  float* vTile = kTile + kKeys * (D + 1);
  constexpr int kCols = D / 32;  // output columns per lane
  const size_t head = (size_t)blockIdx.y * s * e;
  const int rowBase = blockIdx.x * kBlockRows;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

  // Q rows pre-scaled by log2(e)/sqrt(E), so that exp2 of score differences gives the softmax weights.
  for (int idx = threadIdx.x; idx < kBlockRows * D; idx += kThreads) {
    const int r = idx / D, d = idx % D, row = rowBase + r;
    qTile[idx] = (row < s && d < e) ? Q[head + (size_t)row * e + d] * scoreScale : 0.0f;
  }
  const float* myRows = qTile + warp * kRowsPerWarp * D;

  float rowMax[kRowsPerWarp], rowSum[kRowsPerWarp], acc[kRowsPerWarp][kCols];
#pragma unroll
  for (int r = 0; r < kRowsPerWarp; ++r) {
    rowMax[r] = -INFINITY;
    rowSum[r] = 0.0f;
#pragma unroll
    for (int c = 0; c < kCols; ++c) acc[r][c] = 0.0f;
  }

  for (int keyBase = 0; keyBase < s; keyBase += kKeys) {
    __syncthreads();  // the previous tile is no longer read (and, the first time, the Q tile is written)
    for (int idx = threadIdx.x; idx < kKeys * D; idx += kThreads) {
      const int j = idx / D, d = idx % D, key = keyBase + j;
      const bool inside = key < s && d < e;
      kTile[j * (D + 1) + d] = inside ? K[head + (size_t)key * e + d] : 0.0f;
      vTile[idx] = inside ? V[head + (size_t)key * e + d] : 0.0f;
    }
    __syncthreads();

    // Scores of this lane's key against the warp's rows.
    float score[kRowsPerWarp] = {};
    const float* myKey = kTile + lane * (D + 1);
#pragma unroll 2
    for (int d = 0; d < D; d += 4) {
      const float k0 = myKey[d], k1 = myKey[d + 1], k2 = myKey[d + 2], k3 = myKey[d + 3];
#pragma unroll
      for (int r = 0; r < kRowsPerWarp; ++r) {
        const float4 q = *reinterpret_cast<const float4*>(myRows + r * D + d);
        score[r] += q.x * k0 + q.y * k1 + q.z * k2 + q.w * k3;
      }
    }

    // Online softmax: fold this tile into each row's running maximum and sum; score becomes the weight.
    const bool valid = keyBase + lane < s;
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r) {
      const float newMax = fmaxf(rowMax[r], warpMax(valid ? score[r] : -INFINITY));
      const float rescale = exp2f(rowMax[r] - newMax);  // 0 on the first tile, when rowMax is -inf
      score[r] = valid ? exp2f(score[r] - newMax) : 0.0f;
      rowSum[r] = rowSum[r] * rescale + warpSum(score[r]);
      rowMax[r] = newMax;
#pragma unroll
      for (int c = 0; c < kCols; ++c) acc[r][c] *= rescale;
    }

    // acc += weights · V tile: key j's weight comes from lane j.
#pragma unroll 4
    for (int j = 0; j < kKeys; ++j) {
      float value[kCols];
#pragma unroll
      for (int c = 0; c < kCols; ++c) value[c] = vTile[j * D + lane + 32 * c];
#pragma unroll
      for (int r = 0; r < kRowsPerWarp; ++r) {
        const float weight = __shfl_sync(0xffffffffu, score[r], j);
#pragma unroll
        for (int c = 0; c < kCols; ++c) acc[r][c] += weight * value[c];
      }
    }
  }

#pragma unroll
  for (int r = 0; r < kRowsPerWarp; ++r) {
    const int row = rowBase + warp * kRowsPerWarp + r;
    if (row >= s) continue;
#pragma unroll
    for (int c = 0; c < kCols; ++c) {
      const int d = lane + 32 * c;
      if (d < e) output[head + (size_t)row * e + d] = acc[r][c] / rowSum[r];
    }
  }
}

template <int D> void launch(const float* Q, const float* K, const float* V, float* output, size_t heads, size_t s, size_t e) {
  constexpr size_t bytes = sharedBytes<D>();
  // Beyond 48 KiB of dynamic shared memory a kernel must opt in.
  if (bytes > 48 * 1024) cudaFuncSetAttribute(flashAttention<D>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
  const float scoreScale = 1.4426950408889634f / sqrtf((float)e);  // log2(e) / sqrt(E)
  dim3 grid((unsigned)((s + kBlockRows - 1) / kBlockRows), (unsigned)heads);
  flashAttention<D><<<grid, kThreads, bytes>>>(Q, K, V, output, (int)s, (int)e, scoreScale);
}

extern "C" void solution(const float* Q, const float* K, const float* V, float* output, size_t B, size_t H, size_t S,
                         size_t E) {
  const size_t heads = B * H;
  if (E <= 32) launch<32>(Q, K, V, output, heads, S, E);
  else if (E <= 64) launch<64>(Q, K, V, output, heads, S, E);
  else if (E <= 128) launch<128>(Q, K, V, output, heads, S, E);
  else if (E <= 256) launch<256>(Q, K, V, output, heads, S, E);
}
