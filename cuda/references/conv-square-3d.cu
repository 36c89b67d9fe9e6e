// Reference for conv-square-3d: one thread per output voxel, the K×K×K taps summed in double. Same-size output with
// zero padding of K/2 on every side (PyTorch's conv3d, a cross-correlation), all volumes row-major:
// C[i][j][k] = sum_{x,y,z} A[i + x - K/2][j + y - K/2][k + z - K/2] * B[x][y][z]. KB_T is the element type.
__device__ double toDouble(KB_T x) { return (double)(float)x; }

// Taps [first, last) of one dimension whose input position lies inside [0, n): the padding contributes nothing.
__device__ void insideTaps(long long o, long long n, long long k, long long& first, long long& last) {
  first = max(0ll, k / 2 - o);
  last = min(k, n - o + k / 2);
}

extern "C" __global__ void convSquare3dReference(const KB_T* A, const KB_T* B, KB_T* C, long long n, long long k) {
  long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  long long r = blockIdx.y * (long long)blockDim.y + threadIdx.y;
  long long d = blockIdx.z;
  if (r >= n || c >= n) return;
  long long x0, x1, y0, y1, z0, z1;
  insideTaps(d, n, k, x0, x1);
  insideTaps(r, n, k, y0, y1);
  insideTaps(c, n, k, z0, z1);
  double sum = 0.0;
  for (long long x = x0; x < x1; ++x)
    for (long long y = y0; y < y1; ++y) {
      long long row = ((d + x - k / 2) * n + r + y - k / 2) * n + c - k / 2;
      for (long long z = z0; z < z1; ++z) sum += toDouble(A[row + z]) * toDouble(B[(x * k + y) * k + z]);
    }
  C[(d * n + r) * n + c] = (KB_T)sum;
}

extern "C" void reference(const KB_T* A, const KB_T* B, KB_T* C, size_t size, size_t K) {
  dim3 block(32, 8);
  dim3 grid((unsigned)((size + 31) / 32), (unsigned)((size + 7) / 8), (unsigned)size);
  convSquare3dReference<<<grid, block>>>(A, B, C, (long long)size, (long long)K);
}
