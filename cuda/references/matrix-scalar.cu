// Reference for matrix-scalar: one thread per element of the n×n matrix, in double. KB_T is the element type.
extern "C" __global__ void matrixScalarReference(const KB_T* input, float scalar, KB_T* output, size_t count) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < count) output[i] = (KB_T)((double)(float)input[i] * (double)scalar);
}

extern "C" void reference(const KB_T* input_matrix, float scalar, KB_T* output_matrix, size_t n) {
  size_t count = n * n;
  matrixScalarReference<<<(unsigned)((count + 255) / 256), 256>>>(input_matrix, scalar, output_matrix, count);
}
