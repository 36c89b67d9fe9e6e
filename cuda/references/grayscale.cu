// Reference for grayscale: one thread per pixel, 0.299·R + 0.587·G + 0.114·B in double over the pixel's first three
// channels of a row-major HWC image. KB_T is the element type.
extern "C" __global__ void grayscaleReference(const KB_T* rgb, KB_T* gray, long long pixels, long long channels) {
  long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (p >= pixels) return;
  const KB_T* px = rgb + p * channels;
  gray[p] = (KB_T)(0.299 * (double)(float)px[0] + 0.587 * (double)(float)px[1] + 0.114 * (double)(float)px[2]);
}

extern "C" void reference(const KB_T* rgb_image, KB_T* grayscale_output, size_t height, size_t width, size_t channels) {
  long long pixels = (long long)(height * width);
  grayscaleReference<<<(unsigned)((pixels + 255) / 256), 256>>>(rgb_image, grayscale_output, pixels, (long long)channels);
}
