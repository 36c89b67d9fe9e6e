import { defineDequantizeProblem } from '../mx-common/dequantize.js'

/**
 * Tensara's mxfp4-dequantize (torchao's MXTensor to_dtype for float4_e2m1fn_x2, block 32): out = E2M1 element (two
 * per byte, the even element in the low nibble) × E8M0 scale of its block of 32 along K, scales row-major M × K/32.
 *
 * Tensara's inputs are uniform [-1, 1) data quantized by torchao (so every scale is about 2^-3). Here the bytes are
 * drawn: `q` from every byte (every pair of E2M1 codes is a value), and `scale` from 112..135, 2^-15..2^8 around
 * Tensara's.
 */
export const mxfp4Dequantize = defineDequantizeProblem({
  name: 'mxfp4-dequantize',
  description:
    'MXFP4 to float32: out[i][j] = E2M1(q, i·K + j) · 2^(scale[i][j/32] − 127), a row-major M×K matrix packed two ' +
    'E2M1 codes per byte (the even element in the low nibble) with one E8M0 scale byte per 32 elements of K.',
  blockSize: 32,
  elementsPerByte: 2,
  qBytes: [0, 256],
  scaleBytes: [112, 136],
})
