// Threshold on bfloat16: 16-byte vector loads in a grid-stride loop, comparison in float (threshold.cuh). The threshold
// comes before the output pointer, as in Tensara's signature.
#include "threshold.cuh"

extern "C" void solution(const __nv_bfloat16* input_image, float threshold_value, __nv_bfloat16* output_image, size_t height, size_t width) {
  vectorized_map::launch(input_image, output_image, height * width, Threshold{threshold_value});
}
