// Element types a problem can use, with their sizes and C spellings. uint8 is raw bytes, as packed low-precision
// formats (two FP4 values or one FP8 value per byte, E8M0/E4M3 scales) are passed.
export const DTYPES = ['float32', 'float64', 'float16', 'bfloat16', 'int32', 'uint32', 'uint64', 'uint8'] as const
export type Dtype = (typeof DTYPES)[number]

export const DTYPE_BYTES: Record<Dtype, number> = { float32: 4, float64: 8, float16: 2, bfloat16: 2, int32: 4, uint32: 4, uint64: 8, uint8: 1 }

/** The C type a solution sees for each element type (cuda_fp16.h / cuda_bf16.h for the half types, stdint.h for the unsigned ones). */
export const DTYPE_CTYPE: Record<Dtype, string> = {
  float32: 'float',
  float64: 'double',
  float16: '__half',
  bfloat16: '__nv_bfloat16',
  int32: 'int',
  uint32: 'uint32_t',
  uint64: 'uint64_t',
  uint8: 'uint8_t',
}
