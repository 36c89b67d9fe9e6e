import { defineQuantizeProblem } from '../mx-common/quantize.js'

/**
 * Tensara's mxfp4-quantize (torchao's MXTensor to_mx for float4_e2m1fn_x2, block 32, its default FLOOR scale): each
 * block of 32 along K gets the E8M0 scale 2^(floor(log2 amax) − 2), and its elements x / scale rounded to E2M1
 * (nearest even, saturated at 6), two per byte with the even element in the low nibble; scales row-major M × K/32.
 * Judged as Tensara judges it: both sides' q and scale dequantized (torchao's to_dtype) and compared with rtol = atol
 * = 1e-3. Inputs are uniform in [-1, 1], as Tensara's.
 */
export const mxfp4Quantize = defineQuantizeProblem({
  name: 'mxfp4-quantize',
  description:
    'float32 to MXFP4: q packs E2M1(a[i][j] / 2^(scale[i][j/32] − 127)) two per byte (the even element in the low ' +
    'nibble), one E8M0 scale byte per 32 elements of K (row-major M × K/32), judged by dequantizing both sides and ' +
    'comparing with rtol = atol = 1e-3.',
  dtype: 'float32',
  blockSize: 32,
  elementsPerByte: 2,
})
