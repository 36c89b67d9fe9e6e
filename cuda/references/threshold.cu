// Reference for threshold: x > threshold_value ? 255 : 0, in double (unary-map.cuh); 0 and 255 are exact in every
// KB_T. The threshold comes before the output pointer, as in Tensara's signature.
#include "unary-map.cuh"

struct Threshold {
  double value;
  __device__ double operator()(double x) const { return x > value ? 255.0 : 0.0; }
};

extern "C" void reference(const KB_T* input_image, float threshold_value, KB_T* output_image, size_t height, size_t width) {
  launchUnaryMapReference(input_image, output_image, height * width, Threshold{threshold_value});
}
