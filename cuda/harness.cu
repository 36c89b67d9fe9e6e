// The harness's own device code: seeded input fill, NaN poison, GPU-side comparison, L2 flush, the blocking (spin)
// kernel and the calibration kernels. Compiled once per GPU architecture by src/compile/harness.ts and called through
// koffi. Every entry point launches on the legacy default stream (0), the stream Tensara-style solutions use, and
// returns a cudaError_t so that the caller can name the failure; the calibration kernels' entry points are the
// exception: they are called as solutions are (see their comment).
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <stdint.h>
#include <nvtx3/nvToolsExt.h>

// Keep in sync with DTYPE_CODES in src/native/harness.ts.
enum KbDtype { KB_FLOAT32 = 0, KB_FLOAT64 = 1, KB_FLOAT16 = 2, KB_BFLOAT16 = 3, KB_INT32 = 4, KB_UINT32 = 5, KB_UINT64 = 6, KB_UINT8 = 7 };

static const int kThreads = 256;
static const int kMaxBlocks = 4096;

static int blocksFor(size_t n) {
  size_t blocks = (n + kThreads - 1) / kThreads;
  if (blocks < 1) blocks = 1;
  return blocks > kMaxBlocks ? kMaxBlocks : (int)blocks;
}

__device__ double loadAsDouble(const void* p, size_t i, int dtype) {
  switch (dtype) {
    case KB_FLOAT32: return (double)((const float*)p)[i];
    case KB_FLOAT64: return ((const double*)p)[i];
    case KB_FLOAT16: return (double)__half2float(((const __half*)p)[i]);
    case KB_BFLOAT16: return (double)__bfloat162float(((const __nv_bfloat16*)p)[i]);
    case KB_UINT32: return (double)((const uint32_t*)p)[i];
    case KB_UINT64: return (double)((const uint64_t*)p)[i];  // rounded beyond 2^53: compare with absDifference
    case KB_UINT8: return (double)((const uint8_t*)p)[i];
    default: return (double)((const int32_t*)p)[i];
  }
}

__device__ void storeFromDouble(void* p, size_t i, int dtype, double v) {
  switch (dtype) {
    case KB_FLOAT32: ((float*)p)[i] = (float)v; break;
    case KB_FLOAT64: ((double*)p)[i] = v; break;
    case KB_FLOAT16: ((__half*)p)[i] = __float2half((float)v); break;
    case KB_BFLOAT16: ((__nv_bfloat16*)p)[i] = __float2bfloat16((float)v); break;
    case KB_UINT32: ((uint32_t*)p)[i] = (uint32_t)floor(v); break;
    case KB_UINT64: ((uint64_t*)p)[i] = (uint64_t)floor(v); break;
    // Bytes are drawn as integers: a range [lo, hi) gives lo..hi-1, clamped to the byte's 0..255.
    case KB_UINT8: ((uint8_t*)p)[i] = (uint8_t)fmin(fmax(floor(v), 0.0), 255.0); break;
    default: ((int32_t*)p)[i] = (int32_t)floor(v); break;
  }
}

// splitmix64: element i of stream `seed` is a pure function of (seed, i), so the same inputs come back
// whatever the launch shape, and different seeds give independent input sets.
__device__ uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

__global__ void fillUniformKernel(void* out, size_t n, int dtype, uint64_t seed, double lo, double hi) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    double u = (double)(splitmix64(seed ^ splitmix64(i)) >> 11) * 0x1.0p-53;  // [0, 1)
    storeFromDouble(out, i, dtype, lo + (hi - lo) * u);
  }
}

extern "C" int kb_fill_uniform(void* out, size_t n, int dtype, uint64_t seed, double lo, double hi) {
  fillUniformKernel<<<blocksFor(n), kThreads>>>(out, n, dtype, seed, lo, hi);
  return (int)cudaGetLastError();
}

// uint64 integers lo … hi - 1 from the same stream as fillUniformKernel, drawn exactly: the high half of the 64×64-bit
// product r·(hi - lo) maps the 64 random bits onto the span without passing through a double, whose 53 bits would
// leave the low bits of values beyond 2^53 zero. Each value has 2^64 / (hi - lo) of the r, rounded down or up.
__global__ void fillUniformUint64Kernel(uint64_t* out, size_t n, uint64_t seed, uint64_t lo, uint64_t span) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    out[i] = lo + __umul64hi(splitmix64(seed ^ splitmix64(i)), span);
  }
}

extern "C" int kb_fill_uniform_uint64(void* out, size_t n, uint64_t seed, uint64_t lo, uint64_t hi) {
  fillUniformUint64Kernel<<<blocksFor(n), kThreads>>>((uint64_t*)out, n, seed, lo, hi - lo);
  return (int)cudaGetLastError();
}

__global__ void poisonKernel(void* out, size_t n, int dtype) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    switch (dtype) {
      case KB_FLOAT32: ((uint32_t*)out)[i] = 0x7FC00000u; break;
      case KB_FLOAT64: ((uint64_t*)out)[i] = 0x7FF8000000000000ull; break;
      case KB_FLOAT16: ((uint16_t*)out)[i] = 0x7E00u; break;
      case KB_BFLOAT16: ((uint16_t*)out)[i] = 0x7FC0u; break;
      // No NaN for integers: a value no kernel here produces (for the unsigned types, above every modulus).
      case KB_UINT32: ((uint32_t*)out)[i] = UINT32_MAX; break;
      case KB_UINT64: ((uint64_t*)out)[i] = UINT64_MAX; break;
      case KB_UINT8: ((uint8_t*)out)[i] = 0xFFu; break;  // every byte is a value; 0xFF is a NaN in the FP8 and E8M0 formats
      default: ((int32_t*)out)[i] = INT32_MIN; break;  // no NaN for integers: a value no kernel here produces
    }
  }
}

// Gives a square n×n row-major matrix its structure after the uniform fill (kind 0: zeros above the diagonal, 1: zeros
// below it, 2: the upper triangle mirrored from the lower). Elements are moved as bits, so every dtype's zero is 0.
template <typename Bits>
__global__ void structureKernel(Bits* m, size_t n, int kind) {
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < n * n; k += (size_t)gridDim.x * blockDim.x) {
    size_t row = k / n, col = k % n;
    if (kind == 0 && col > row) m[k] = 0;
    if (kind == 1 && col < row) m[k] = 0;
    if (kind == 2 && col > row) m[k] = m[col * n + row];
  }
}

extern "C" int kb_structure_square(void* data, size_t n, int dtype, int kind) {
  switch (dtype) {
    case KB_FLOAT64:
    case KB_UINT64: structureKernel<<<blocksFor(n * n), kThreads>>>((uint64_t*)data, n, kind); break;
    case KB_FLOAT16:
    case KB_BFLOAT16: structureKernel<<<blocksFor(n * n), kThreads>>>((uint16_t*)data, n, kind); break;
    case KB_UINT8: structureKernel<<<blocksFor(n * n), kThreads>>>((uint8_t*)data, n, kind); break;
    default: structureKernel<<<blocksFor(n * n), kThreads>>>((uint32_t*)data, n, kind); break;
  }
  return (int)cudaGetLastError();
}

// Fills an output with NaN so that an element the solution never writes cannot pass as correct.
extern "C" int kb_poison(void* out, size_t n, int dtype) {
  poisonKernel<<<blocksFor(n), kThreads>>>(out, n, dtype);
  return (int)cudaGetLastError();
}

// Layout shared with CompareResult in src/native/harness.ts.
struct KbCompareResult {
  unsigned long long badCount;
  unsigned long long nanCount;
  unsigned long long firstBad;     // n when every element is within tolerance
  unsigned long long maxAbsErrBits; // bit pattern of a non-negative double: ordered like the value itself
  double expectedAtFirstBad;
  double gotAtFirstBad;
};

// |got - expected| at element i: exact for the 64-bit integers (the difference is taken before it is rounded to a
// double, so two values beyond 2^53 that differ by 1 differ by 1, not 0), as loadAsDouble's difference elsewhere.
__device__ double absDifference(const void* got, const void* expected, size_t i, int dtype) {
  if (dtype == KB_UINT64) {
    uint64_t g = ((const uint64_t*)got)[i], e = ((const uint64_t*)expected)[i];
    return (double)(g > e ? g - e : e - g);
  }
  return fabs(loadAsDouble(got, i, dtype) - loadAsDouble(expected, i, dtype));
}

// Each thread keeps its own counts, largest error and first bad index over its elements; a warp combines them
// with shuffles and adds them into `r` with one atomic each. One atomic per element on a single address serializes
// in L2 (about 0.7 s for 2^30 elements on an H100); per warp it is 32 times fewer, and the counts are the same.
__global__ void compareKernel(const void* got, const void* expected, size_t n, int dtype, double rtol,
                              double atol, KbCompareResult* r) {
  unsigned long long bad = 0, nans = 0, maxErrBits = 0, firstBad = n;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    double g = loadAsDouble(got, i, dtype);
    double e = loadAsDouble(expected, i, dtype);
    double err = absDifference(got, expected, i, dtype);
    if (isnan(g)) nans++;
    else {
      unsigned long long bits = (unsigned long long)__double_as_longlong(err);
      if (bits > maxErrBits) maxErrBits = bits;
    }
    // Written as "not within" so that NaN in either operand counts as bad.
    if (!(err <= atol + rtol * fabs(e))) {
      if (bad == 0) firstBad = i;  // a thread's indices only grow
      bad++;
    }
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    bad += __shfl_down_sync(0xFFFFFFFFu, bad, offset);
    nans += __shfl_down_sync(0xFFFFFFFFu, nans, offset);
    maxErrBits = max(maxErrBits, __shfl_down_sync(0xFFFFFFFFu, maxErrBits, offset));
    firstBad = min(firstBad, __shfl_down_sync(0xFFFFFFFFu, firstBad, offset));
  }
  if ((threadIdx.x & 31) != 0) return;
  if (bad > 0) {
    atomicAdd(&r->badCount, bad);
    atomicMin(&r->firstBad, firstBad);
  }
  if (nans > 0) atomicAdd(&r->nanCount, nans);
  if (maxErrBits > 0) atomicMax(&r->maxAbsErrBits, maxErrBits);
}

__global__ void pickKernel(const void* got, const void* expected, int dtype, KbCompareResult* r) {
  if (r->badCount > 0) {
    r->gotAtFirstBad = loadAsDouble(got, r->firstBad, dtype);
    r->expectedAtFirstBad = loadAsDouble(expected, r->firstBad, dtype);
  }
}

// Compares `got` with `expected` element by element (|got - expected| <= atol + rtol * |expected|) on the
// GPU and copies the summary into the host struct `result`.
extern "C" int kb_compare(const void* got, const void* expected, size_t n, int dtype, double rtol, double atol,
                          KbCompareResult* result) {
  KbCompareResult init = {0ull, 0ull, (unsigned long long)n, 0ull, 0.0, 0.0};
  KbCompareResult* d = nullptr;
  cudaError_t err = cudaMalloc(&d, sizeof(KbCompareResult));
  if (err != cudaSuccess) return (int)err;
  cudaMemcpy(d, &init, sizeof(init), cudaMemcpyHostToDevice);
  compareKernel<<<blocksFor(n), kThreads>>>(got, expected, n, dtype, rtol, atol, d);
  pickKernel<<<1, 1>>>(got, expected, dtype, d);
  err = cudaGetLastError();
  if (err == cudaSuccess) err = cudaMemcpy(result, d, sizeof(KbCompareResult), cudaMemcpyDeviceToHost);
  cudaFree(d);
  return (int)err;
}

// An order-independent 64-bit digest of a buffer's 16-bit words: the sum over i of splitmix64(word_i ^ splitmix64(i)).
// Equal digests before and after a call mean the call left the buffer as it found it (bar a 2^-64 collision).
__global__ void checksumKernel(const uint16_t* words, size_t n, unsigned long long* out) {
  unsigned long long sum = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    sum += splitmix64((uint64_t)words[i] ^ splitmix64(i));
  }
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xFFFFFFFFu, sum, offset);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, sum);
}

// Stream-ordered: zeroes *digest (device memory) and adds the digest of `bytes` (even: every dtype is 2 bytes or
// more) into it.
extern "C" int kb_checksum(const void* data, size_t bytes, unsigned long long* digest) {
  cudaError_t err = cudaMemsetAsync(digest, 0, sizeof(*digest));
  if (err != cudaSuccess) return (int)err;
  size_t n = bytes / sizeof(uint16_t);
  checksumKernel<<<blocksFor(n), kThreads>>>((const uint16_t*)data, n, digest);
  return (int)cudaGetLastError();
}

// Reads every 16-byte word of `scratch` (sized at least twice the L2) so that L2 holds only clean lines of a
// buffer the solution never touches. A read flush is used instead of memset because a write flush leaves dirty
// lines whose write-back would be charged to the next (timed) kernel. The sink write does not happen (scratch is
// zeroed; after kb_discard_l2 its contents are unpredictable, and the write is harmless) but depends on the data, so
// the loads cannot be removed.
__global__ void readFlushKernel(const int4* scratch, size_t words, int* sink) {
  int acc = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < words; i += (size_t)gridDim.x * blockDim.x) {
    int4 v = __ldcg(scratch + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x5EED) *sink = acc;
}

extern "C" int kb_flush_read(const void* scratch, size_t bytes, int* sink) {
  size_t words = bytes / sizeof(int4);
  readFlushKernel<<<blocksFor(words), kThreads>>>((const int4*)scratch, words, sink);
  return (int)cudaGetLastError();
}

// Drops every 128-byte line of `scratch` from L2 without writing it back (discard.global.L2, sm_80 and later). After a
// read flush, L2 then holds nothing, as after Nsight Compute's cache flush, instead of the flush buffer's clean lines.
// The buffer's contents become unpredictable, which only its unused sink (kb_flush_read) could notice. Before sm_80
// it does nothing.
__global__ void discardKernel(char* scratch, size_t lines) {
#if __CUDA_ARCH__ >= 800
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < lines; i += (size_t)gridDim.x * blockDim.x) {
    asm volatile("discard.global.L2 [%0], 128;" ::"l"(scratch + i * 128) : "memory");
  }
#endif
}

extern "C" int kb_discard_l2(void* scratch, size_t bytes) {
  size_t lines = bytes / 128;
  discardKernel<<<blocksFor(lines), kThreads>>>((char*)scratch, lines);
  return (int)cudaGetLastError();
}

__device__ uint64_t globalTimerNs() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Holds the stream until the host sets *flag (a host-mapped word), like nvbench's blocking kernel: every
// iteration of a batch is enqueued behind it, so launch overhead never shows between timed kernels. Gives up
// after timeoutNs and records that in *timedOut (zeroed by kb_spin first), so a host that dies cannot deadlock the
// GPU, and a batch whose enqueue outlasted the spin is known.
__global__ void spinKernel(volatile int* flag, uint64_t timeoutNs, int* timedOut) {
  uint64_t start = globalTimerNs();
  while (*flag == 0) {
    if (globalTimerNs() - start > timeoutNs) {
      *timedOut = 1;
      return;
    }
    __nanosleep(1000);
  }
}

extern "C" int kb_spin(volatile int* flagDevice, uint64_t timeoutNs, int* timedOutDevice) {
  cudaError_t err = cudaMemsetAsync(timedOutDevice, 0, sizeof(int));
  if (err != cudaSuccess) return (int)err;
  spinKernel<<<1, 1>>>(flagDevice, timeoutNs, timedOutDevice);
  return (int)cudaGetLastError();
}

extern "C" void kb_set_flag(volatile int* flagHost, int value) {
  __sync_synchronize();
  *flagHost = value;
  __sync_synchronize();
}

// The smallest change of %globaltimer between two reads, over `changes` changes (or as many as `reads` reads see):
// how finely a kernel that watches it can end (about 32 ns on Hopper, 1 µs on some older GPUs). 0 when the timer
// never moved.
__global__ void globalTimerStepKernel(int changes, int reads, unsigned long long* stepNs) {
  uint64_t smallest = 0;
  uint64_t last = globalTimerNs();
  for (int seen = 0, read = 0; seen < changes && read < reads; read++) {
    uint64_t now = globalTimerNs();
    if (now == last) continue;
    if (smallest == 0 || now - last < smallest) smallest = now - last;
    last = now;
    seen++;
  }
  *stepNs = smallest;
}

extern "C" int kb_global_timer_step(int changes, int reads, unsigned long long* stepNsDevice) {
  globalTimerStepKernel<<<1, 1>>>(changes, reads, stepNsDevice);
  return (int)cudaGetLastError();
}

// The calibration kernels (src/engine/host/calibration.ts): their true duration is known, or read by Nsight Compute, so
// what each timing mode adds to it can be measured. Their entry points are called exactly as a solution's are (the
// same koffi path, no return value, the arguments the engine allocates), so a calibration measures what a bench's
// timing adds. They launch on the legacy stream, or with perThreadStream set on the per-thread default stream,
// where 'graph' timing captures (solutions are compiled with --default-stream per-thread for it).
static cudaStream_t calibrationStream(int perThreadStream) { return perThreadStream ? cudaStreamPerThread : 0; }

// Holds the GPU until `ns` nanoseconds of %globaltimer have passed since its one thread started: a kernel whose
// duration is known on the GPU's own clock, whatever the SM clock. It ends at the first read past the mark, so
// within one step of the timer (kb_global_timer_step) of `ns`; the unsigned difference cannot wrap into a hang.
__global__ void calibrationHoldKernel(uint64_t ns) {
  const uint64_t start = globalTimerNs();
  while (globalTimerNs() - start < ns) {
  }
}

extern "C" void kb_calibration_hold(size_t ns, int perThreadStream) {
  calibrationHoldKernel<<<1, 1, 0, calibrationStream(perThreadStream)>>>((uint64_t)ns);
}

// c = a + b over n floats: memory-bound, 12 bytes moved per element.
__global__ void calibrationAddKernel(const float* a, const float* b, float* c, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    c[i] = a[i] + b[i];
  }
}

extern "C" void kb_calibration_add(const float* a, const float* b, float* c, size_t n, int perThreadStream) {
  calibrationAddKernel<<<blocksFor(n), kThreads, 0, calibrationStream(perThreadStream)>>>(a, b, c, n);
}

// The board probe: c = a·b, a m×k and b k×n row-major floats, one thread per element of c, no tiling, so that every
// multiply-add reads b from memory, and b (at least the L2's size, as the engine sizes it) from DRAM. What it
// measures is how the board's memory side serves a naive kernel: boards of one model came in kinds that read it a few
// percent apart, as kernels that read beyond the L2 do (src/engine/host/board-probe.ts).
__global__ void boardProbeKernel(const float* a, const float* b, float* c, size_t m, size_t n, size_t k) {
  // 64-bit index arithmetic, as in the sgemm the kinds were found with: its time is what the kinds were measured by.
  size_t row = blockIdx.y * (size_t)blockDim.y + threadIdx.y;
  size_t col = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (row >= m || col >= n) return;
  const float* rowOfA = a + row * k;
  const float* columnOfB = b + col;
  float sum = 0.0f;
  for (size_t i = 0; i < k; ++i) sum += rowOfA[i] * columnOfB[i * n];
  c[row * n + col] = sum;
}

extern "C" int kb_board_probe(const float* a, const float* b, float* c, size_t m, size_t n, size_t k) {
  dim3 block(16, 16);
  dim3 grid((unsigned)((n + block.x - 1) / block.x), (unsigned)((m + block.y - 1) / block.y));
  boardProbeKernel<<<grid, block>>>(a, b, c, m, n, k);
  return (int)cudaGetLastError();
}

// NVTX ranges around timed calls, for Nsight tools to select the solution's kernels by (`nvtxRanges`). NVTX is
// header-only: without a tool attached these calls do nothing.
extern "C" void kb_nvtx_push(const char* name) { nvtxRangePushA(name); }
extern "C" void kb_nvtx_pop() { nvtxRangePop(); }
