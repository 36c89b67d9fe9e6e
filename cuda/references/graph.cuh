// Dijkstra's and Prim's algorithms on a dense row-major adjacency matrix (adj[u][v] > 0: an edge u → v of that
// weight), run by one block of kGraphThreads threads. Both grow a set of settled vertices from `start`: each round
// settles the unsettled vertex of least key, then lowers its neighbours' keys to a candidate: key[u] + w for
// Dijkstra (path lengths), w alone for Prim (the lightest edge into the tree). A settled vertex's key is final; a
// vertex no edge reaches keeps +∞. Keys are doubles, so path lengths and tree weights add up without rounding.
#include <cuda_runtime.h>
#include <math.h>

static const int kGraphThreads = 1024;

struct Settled {
  size_t count;  // vertices settled
  double total;  // the sum of their keys at settling (a minimum spanning tree's weight, for Prim)
};

template <bool kPathLengths>
__device__ Settled settleAll(const float* adj, size_t n, int start, double* key, unsigned char* settled) {
  __shared__ double bestKey[kGraphThreads];
  __shared__ size_t bestVertex[kGraphThreads];
  const int tid = threadIdx.x;
  for (size_t v = tid; v < n; v += kGraphThreads) {
    key[v] = v == (size_t)start ? 0.0 : INFINITY;
    settled[v] = 0;
  }
  __syncthreads();
  Settled result = {0, 0.0};
  for (;;) {
    double best = INFINITY;
    size_t vertex = 0;
    for (size_t v = tid; v < n; v += kGraphThreads) {
      if (!settled[v] && key[v] < best) {
        best = key[v];
        vertex = v;
      }
    }
    bestKey[tid] = best;
    bestVertex[tid] = vertex;
    __syncthreads();
    for (int half = kGraphThreads / 2; half > 0; half /= 2) {
      if (tid < half && bestKey[tid + half] < bestKey[tid]) {
        bestKey[tid] = bestKey[tid + half];
        bestVertex[tid] = bestVertex[tid + half];
      }
      __syncthreads();
    }
    const double keyU = bestKey[0];
    const size_t u = bestVertex[0];
    __syncthreads();  // all have read the winner before anyone writes the next round's
    if (keyU == INFINITY) return result;  // the same for every thread: nothing left that an edge reaches
    result.count += 1;
    result.total += keyU;
    if (tid == 0) settled[u] = 1;
    __syncthreads();
    const float* row = adj + u * n;
    for (size_t v = tid; v < n; v += kGraphThreads) {
      const float w = row[v];
      if (settled[v] || !(w > 0.0f)) continue;
      const double candidate = kPathLengths ? keyU + (double)w : (double)w;
      if (candidate < key[v]) key[v] = candidate;
    }
    __syncthreads();
  }
}

// Scratch for settleAll: n keys and n settled flags.
struct SettleScratch {
  double* key = nullptr;
  unsigned char* settled = nullptr;
  explicit SettleScratch(size_t n) {
    cudaMalloc(&key, n * sizeof(double));
    cudaMalloc(&settled, n);
  }
  ~SettleScratch() {
    cudaFree(key);
    cudaFree(settled);
  }
};
