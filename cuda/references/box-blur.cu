// Reference for box-blur: one thread per pixel sums the K×K window centred on it in double, over the window's pixels
// inside the image only, and divides by how many those are. KB_T is the element type.
extern "C" __global__ void boxBlurReference(const KB_T* in, KB_T* out, long long h, long long w, long long radius) {
  long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  long long r = blockIdx.y * (long long)blockDim.y + threadIdx.y;
  if (r >= h || c >= w) return;
  long long top = max(0ll, r - radius), bottom = min(h - 1, r + radius);
  long long left = max(0ll, c - radius), right = min(w - 1, c + radius);
  double sum = 0.0;
  for (long long y = top; y <= bottom; ++y) {
    for (long long x = left; x <= right; ++x) sum += (double)(float)in[y * w + x];
  }
  out[r * w + c] = (KB_T)(sum / (double)((bottom - top + 1) * (right - left + 1)));
}

extern "C" void reference(const KB_T* input_image, int kernel_size, KB_T* output_image, size_t height, size_t width) {
  dim3 block(32, 8);
  dim3 grid((unsigned)((width + 31) / 32), (unsigned)((height + 7) / 8));
  boxBlurReference<<<grid, block>>>(input_image, output_image, (long long)height, (long long)width, (long long)(kernel_size / 2));
}
