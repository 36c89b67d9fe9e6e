// Is the "place" effect on a small memory-bound kernel's time (docs/protocol.md, "Places") a property of the physical
// memory, which another process shares through CUDA IPC, or of the process? A parent allocates a region of 192 MiB and
// times three kernels (a 2^20- and a 2^22-float add, a row normalisation of 1024×1024 floats) at 64 offsets of it
// (2 MiB steps, in a random order, each offset's median of 41 calls as CUPTI reads them, the L2 flushed before each
// call); eight child processes open the region and time the same offsets twice each; then the parent again. Prints CSV
// lines `sweep,kernel,offset,median ns` (sweep P-a, C1-a, C1-b, ..., P-b); scripts/shared-place-experiment.ts reads them.
// `placeexp realloc R` instead times each offset k in a new allocation behind a spacer of k pages, as the product's
// moves did, twice (sweeps R-a, R-b): whether the same spacer finds the same place again.
// Used for docs/ci-gate.md, "Shared places". On a GPU host:
//   nvcc -O2 -arch=sm_90 -o /tmp/placeexp scripts/shared-place-experiment.cu -lcupti && /tmp/placeexp parent > place.csv
#include <cuda_runtime.h>
#include <cupti.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <random>
#include <string>
#include <unistd.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)
#define CP(x) do { CUptiResult r = (x); if (r != CUPTI_SUCCESS) { fprintf(stderr, "cupti %d at %d\n", (int)r, __LINE__); exit(1); } } while (0)

static const size_t MB2 = 2u << 20;
static const int OFFSETS = 64;
static const size_t ARENA = (OFFSETS + 32) * MB2;  // 192 MiB
static std::vector<unsigned long long> durations;

static void CUPTIAPI bufReq(uint8_t** buf, size_t* size, size_t* maxRecords) {
  *size = 8 << 20; *buf = (uint8_t*)aligned_alloc(8, *size); *maxRecords = 0;
}
static void CUPTIAPI bufDone(CUcontext, uint32_t, uint8_t* buf, size_t, size_t valid) {
  CUpti_Activity* rec = nullptr;
  while (cuptiActivityGetNextRecord(buf, valid, &rec) == CUPTI_SUCCESS) {
    if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
      auto* k = (CUpti_ActivityKernel10*)rec;
      if (k->name && strstr(k->name, "flush") == nullptr) durations.push_back(k->end - k->start);
    }
  }
  free(buf);
}

__global__ void flushK(float4* p, size_t n) { for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = make_float4(0, 0, 0, 0); }
__global__ void addK(const float4* a, const float4* b, float4* c, size_t n) {
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { float4 x = a[i], y = b[i]; c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w); }
}
__global__ void rowK(const float* X, float* Y, int N) {
  const float4* x = (const float4*)(X + (size_t)blockIdx.x * N);
  float4* y = (float4*)(Y + (size_t)blockIdx.x * N);
  float s = 0;
  for (int i = threadIdx.x; i < N / 4; i += blockDim.x) { float4 v = x[i]; s += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w; }
  __shared__ float part[32];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
  if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = s;
  __syncthreads();
  if (threadIdx.x < 32) { s = threadIdx.x < blockDim.x / 32 ? part[threadIdx.x] : 0; for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o); if (threadIdx.x == 0) part[0] = s; }
  __syncthreads();
  float r = rsqrtf(part[0] / N + 1e-5f);
  for (int i = threadIdx.x; i < N / 4; i += blockDim.x) { float4 v = x[i]; y[i] = make_float4(v.x * r, v.y * r, v.z * r, v.w * r); }
}

static size_t up2(size_t b) { return (b + MB2 - 1) / MB2 * MB2; }

struct Flush { float4* p; size_t n; };

// Times kernel `which` at base `base` (3 buffers laid out 2 MiB aligned), `reps` calls, returns the median in ns.
static double timeAt(char* base, int which, int reps, Flush fl) {
  durations.clear();
  for (int r = 0; r < reps; r++) {
    flushK<<<1024, 256>>>(fl.p, fl.n);
    if (which == 0 || which == 2) {
      size_t n = which == 0 ? (1u << 20) : (1u << 22);
      size_t bytes = n * 4;
      float4* a = (float4*)base; float4* b = (float4*)(base + up2(bytes)); float4* c = (float4*)(base + 2 * up2(bytes));
      addK<<<(unsigned)((n / 4 + 255) / 256), 256>>>(a, b, c, n / 4);
    } else {
      size_t bytes = 1024u * 1024u * 4;
      rowK<<<1024, 256>>>((float*)base, (float*)(base + up2(bytes)), 1024);
    }
  }
  CK(cudaDeviceSynchronize());
  CP(cuptiActivityFlushAll(1));
  std::vector<unsigned long long> d = durations;
  if (d.empty()) return -1;
  std::sort(d.begin(), d.end());
  return (double)d[d.size() / 2];
}

static const char* KNAMES[] = {"add2^20", "row1024", "add2^22"};

static void sweep(const char* label, char* arena, Flush fl, std::mt19937& rng, int reps) {
  std::vector<int> order(OFFSETS);
  for (int i = 0; i < OFFSETS; i++) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  for (int k : order)
    for (int w = 0; w < 3; w++) printf("%s,%s,%d,%.0f\n", label, KNAMES[w], k, timeAt(arena + k * MB2, w, reps, fl));
  fflush(stdout);
}

// Like the product's move: free, a spacer of k pages, then each buffer its own cudaMalloc.
static void reallocSweep(const char* label, Flush fl, std::mt19937& rng, int reps) {
  std::vector<int> order(OFFSETS);
  for (int i = 0; i < OFFSETS; i++) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  for (int k : order) {
    void* spacer = nullptr;
    if (k > 0) CK(cudaMalloc(&spacer, k * MB2));
    // One allocation holds the three buffers, laid out as in the region.
    char* block; CK(cudaMalloc(&block, 32 * MB2));
    for (int w = 0; w < 3; w++) printf("%s,%s,%d,%.0f\n", label, KNAMES[w], k, timeAt(block, w, reps, fl));
    CK(cudaFree(block));
    if (spacer) CK(cudaFree(spacer));
  }
  fflush(stdout);
}

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "parent";
  int reps = 41;
  CK(cudaSetDevice(0));
  CP(cuptiActivityRegisterCallbacks(bufReq, bufDone));
  CP(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  Flush fl; fl.n = (128u << 20) / 16; CK(cudaMalloc(&fl.p, fl.n * 16));
  std::mt19937 rng(getpid());
  // warm up
  { char* t; CK(cudaMalloc(&t, 64 * MB2)); CK(cudaMemset(t, 0, 64 * MB2)); for (int i = 0; i < 200; i++) timeAt(t, i % 3, 5, fl); CK(cudaFree(t)); }
  if (mode == "parent") {
    char* arena; CK(cudaMalloc(&arena, ARENA)); CK(cudaMemset(arena, 0, ARENA));
    cudaIpcMemHandle_t h; CK(cudaIpcGetMemHandle(&h, arena));
    char hex[2 * sizeof(h) + 1];
    for (size_t i = 0; i < sizeof(h); i++) sprintf(hex + 2 * i, "%02x", (unsigned char)((char*)&h)[i]);
    sweep("P-a", arena, fl, rng, reps);
    for (int c = 1; c <= 8; c++) {
      std::string cmd = std::string(argv[0]) + " child C" + std::to_string(c) + " " + hex;
      fflush(stdout);
      if (system(cmd.c_str()) != 0) { fprintf(stderr, "child failed\n"); return 1; }
    }
    sweep("P-b", arena, fl, rng, reps);
    CK(cudaFree(arena));
  } else if (mode == "child") {
    cudaIpcMemHandle_t h; const char* hex = argv[3];
    for (size_t i = 0; i < sizeof(h); i++) { unsigned v; sscanf(hex + 2 * i, "%2x", &v); ((unsigned char*)&h)[i] = v; }
    void* arena; CK(cudaIpcOpenMemHandle(&arena, h, cudaIpcMemLazyEnablePeerAccess));
    std::string l = argv[2];
    sweep((l + "-a").c_str(), (char*)arena, fl, rng, reps);
    sweep((l + "-b").c_str(), (char*)arena, fl, rng, reps);
    CK(cudaIpcCloseMemHandle(arena));
  } else if (mode == "realloc") {
    std::string l = argv[2];
    reallocSweep((l + "-a").c_str(), fl, rng, reps);
    reallocSweep((l + "-b").c_str(), fl, rng, reps);
  }
  CP(cuptiActivityFlushAll(1));
  return 0;
}
