// Reference for conv-2d: conv-2d.cuh, the Kh×Kw taps summed in double, the sum stored as it is.
#include "conv-2d.cuh"

struct Identity {
  __device__ double operator()(double x) const { return x; }
};

extern "C" void reference(const KB_T* A, const KB_T* B, KB_T* C, size_t H, size_t W, size_t Kh, size_t Kw) {
  launchConv2dReference<Identity>(A, B, C, H, W, Kh, Kw);
}
