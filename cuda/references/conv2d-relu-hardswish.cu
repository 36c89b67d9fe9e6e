// Reference for conv2d-relu-hardswish: conv-2d.cuh, the Kh×Kw taps summed in double, then ReLU and HardSwish in
// double as Tensara's reference applies them: r = max(0, x), r · min(max(r + 3, 0), 6) / 6.
#include "conv-2d.cuh"

struct ReluHardswish {
  __device__ double operator()(double x) const {
    double r = fmax(x, 0.0);
    return r * fmin(fmax(r + 3.0, 0.0), 6.0) / 6.0;
  }
};

extern "C" void reference(const KB_T* image, const KB_T* kernel, KB_T* output, size_t H, size_t W, size_t Kh, size_t Kw) {
  launchConv2dReference<ReluHardswish>(image, kernel, output, H, W, Kh, Kw);
}
