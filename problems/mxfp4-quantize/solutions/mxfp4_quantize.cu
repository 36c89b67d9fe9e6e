// MXFP4 quantization: four threads per block of 32, 8 floats each, 4 bytes of E2M1 pairs stored at once
// (mx_quantize.cuh).
#include "../../mx-common/mx_quantize.cuh"

extern "C" void solution(const float* a, uint8_t* q, uint8_t* scale, size_t m, size_t k) {
  mxq::launch<mxq::Fp4>(a, q, scale, m, k);
}
