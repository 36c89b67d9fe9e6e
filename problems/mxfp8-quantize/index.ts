import { defineQuantizeProblem } from '../mx-common/quantize.js'

/**
 * Tensara's mxfp8-quantize (torchao's MXTensor to_mx for float8_e4m3fn, block 32, its default FLOOR scale): each block
 * of 32 along K gets the E8M0 scale 2^(floor(log2 amax) − 8), and its elements x / scale rounded to E4M3 (nearest
 * even, saturated at 448: a block's amax may reach 2^9 · scale, beyond E4M3's largest value); scales row-major
 * M × K/32. Judged as Tensara judges it: both sides' q and scale dequantized (torchao's to_dtype) and compared with
 * rtol = atol = 1e-3. Inputs are uniform in [-1, 1], as Tensara's.
 */
export const mxfp8Quantize = defineQuantizeProblem({
  name: 'mxfp8-quantize',
  description:
    'float32 to MXFP8: q[i][j] = E4M3(a[i][j] / 2^(scale[i][j/32] − 127)), one E8M0 scale byte per 32 elements of K ' +
    '(row-major M × K/32), judged by dequantizing both sides and comparing with rtol = atol = 1e-3.',
  dtype: 'float32',
  blockSize: 32,
  elementsPerByte: 1,
})
