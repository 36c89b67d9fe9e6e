// Reference for mxfp4-quantize: torchao's to_mx to float4_e2m1fn_x2, block 32 (mx-quantize.cuh), and the decoding both
// sides' outputs are judged by.
#include "mx-quantize.cuh"

extern "C" void reference(const float* a, uint8_t* q, uint8_t* scale, size_t m, size_t k) {
  mxQuantize<Fp4Codes>(a, q, scale, m, k);
}

extern "C" void decode(const float* a, const uint8_t* q, const uint8_t* scale, size_t m, size_t k, float* dequantized) {
  mxDecode<Fp4Elements>(q, scale, dequantized, m, k);
}
