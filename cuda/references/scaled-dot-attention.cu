// Reference for scaled-dot-attention: output = softmax(Q Kᵀ / sqrt(E)) V for each of the B·H heads, with Q, K, V
// and output row-major B×H×S×E. One block per query row, everything in double: the row's S scores live in shared
// memory (opted in beyond 48 KiB, so S up to about 28 000 on Hopper; B·H up to 65535), then max, exponentials, sum
// and the weighted sum of V rows. KB_T is the element type.
constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

__device__ double toDouble(KB_T x) { return (double)(float)x; }

struct Sum {
  __device__ double operator()(double a, double b) const { return a + b; }
};
struct Max {
  __device__ double operator()(double a, double b) const { return fmax(a, b); }
};

template <class Op> __device__ double warpReduce(double v, Op op) {
  for (int offset = 16; offset > 0; offset /= 2) v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

/** Every thread of the block gets op over all threads' values. */
template <class Op> __device__ double blockReduce(double v, Op op, double* scratch) {
  v = warpReduce(v, op);
  if (threadIdx.x % 32 == 0) scratch[threadIdx.x / 32] = v;
  __syncthreads();
  double total = scratch[0];
  for (int w = 1; w < kWarps; ++w) total = op(total, scratch[w]);
  __syncthreads();  // scratch is reused by the next reduction
  return total;
}

extern "C" __global__ void __launch_bounds__(kThreads)
    attentionReference(const KB_T* Q, const KB_T* K, const KB_T* V, KB_T* output, long long s, long long e) {
  extern __shared__ double shared[];
  double* scratch = shared;           // kWarps
  double* query = scratch + kWarps;   // e
  double* weights = query + e;        // s: scores, then exponentials
  const long long head = blockIdx.y, row = blockIdx.x;
  const KB_T* q = Q + (head * s + row) * e;
  const KB_T* keys = K + head * s * e;
  const KB_T* values = V + head * s * e;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

  for (long long d = threadIdx.x; d < e; d += kThreads) query[d] = toDouble(q[d]);
  __syncthreads();

  // Scores: one warp per key, lanes across the embedding (coalesced reads of the key row).
  const double scale = 1.0 / sqrt((double)e);
  for (long long j = warp; j < s; j += kWarps) {
    double dot = 0.0;
    for (long long d = lane; d < e; d += 32) dot += query[d] * toDouble(keys[j * e + d]);
    dot = warpReduce(dot, Sum());
    if (lane == 0) weights[j] = dot * scale;
  }
  __syncthreads();

  double localMax = -INFINITY;
  for (long long j = threadIdx.x; j < s; j += kThreads) localMax = fmax(localMax, weights[j]);
  const double rowMax = blockReduce(localMax, Max(), scratch);
  double localSum = 0.0;
  for (long long j = threadIdx.x; j < s; j += kThreads) {
    weights[j] = exp(weights[j] - rowMax);
    localSum += weights[j];
  }
  const double rowSum = blockReduce(localSum, Sum(), scratch);

  // Weighted sum of value rows: one thread per output element, reading each value row coalesced.
  for (long long d = threadIdx.x; d < e; d += kThreads) {
    double acc = 0.0;
    for (long long j = 0; j < s; ++j) acc += weights[j] * toDouble(values[j * e + d]);
    output[(head * s + row) * e + d] = (KB_T)(acc / rowSum);
  }
}

extern "C" void reference(const KB_T* Q, const KB_T* K, const KB_T* V, KB_T* output, size_t B, size_t H, size_t S,
                          size_t E) {
  const size_t sharedBytes = (kWarps + E + S) * sizeof(double);
  cudaFuncSetAttribute(attentionReference, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sharedBytes);
  dim3 grid((unsigned)S, (unsigned)(B * H));
  attentionReference<<<grid, kThreads, sharedBytes>>>(Q, K, V, output, (long long)S, (long long)E);
}
