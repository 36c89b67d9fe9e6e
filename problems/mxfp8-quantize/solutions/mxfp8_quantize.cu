// MXFP8 quantization: four threads per block of 32, 8 floats each, 8 E4M3 bytes stored at once (mx_quantize.cuh).
#include "../../mx-common/mx_quantize.cuh"

extern "C" void solution(const float* a, uint8_t* q, uint8_t* scale, size_t m, size_t k) {
  mxq::launch<mxq::Fp8>(a, q, scale, m, k);
}
