// Reference for matrix-vector: c = A·b with A m×k row-major, accumulated in double. KB_T is the element type.
// One warp per output: the lanes read the row with coalesced loads and combine their partial sums with shuffles.
constexpr int WARPS_PER_BLOCK = 8;

extern "C" __global__ void matrixVectorReference(const KB_T* a, const KB_T* b, KB_T* c, size_t m, size_t k) {
  const size_t row = blockIdx.x * (size_t)WARPS_PER_BLOCK + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= m) return;
  double sum = 0.0;
  for (size_t i = lane; i < k; i += 32) sum += (double)(float)a[row * k + i] * (double)(float)b[i];
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (lane == 0) c[row] = (KB_T)sum;
}

extern "C" void reference(const KB_T* input_a, const KB_T* input_b, KB_T* output_c, size_t m, size_t k) {
  matrixVectorReference<<<(unsigned)((m + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK), 32 * WARPS_PER_BLOCK>>>(
      input_a, input_b, output_c, m, k);
}
