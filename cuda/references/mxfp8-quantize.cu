// Reference for mxfp8-quantize: torchao's to_mx to float8_e4m3fn, block 32 (mx-quantize.cuh), and the decoding both
// sides' outputs are judged by.
#include "mx-quantize.cuh"

extern "C" void reference(const float* a, uint8_t* q, uint8_t* scale, size_t m, size_t k) {
  mxQuantize<Fp8Codes>(a, q, scale, m, k);
}

extern "C" void decode(const float* a, const uint8_t* q, const uint8_t* scale, size_t m, size_t k, float* dequantized) {
  mxDecode<Fp8Elements>(q, scale, dequantized, m, k);
}
