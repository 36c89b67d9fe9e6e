import { defineDequantizeProblem } from '../mx-common/dequantize.js'

/**
 * Tensara's mxfp8-dequantize (torchao's MXTensor to_dtype for float8_e4m3fn, block 32): out = E4M3 element × E8M0
 * scale of its block of 32 along K, scales row-major M × K/32.
 *
 * Tensara's inputs are uniform [-1, 1) data quantized by torchao (so every scale is about 2^-9). Here the bytes are
 * drawn: `q` from 0x00..0x7E, every finite non-negative E4M3 value (0x7F and 0xFF are NaN, and no range of bytes
 * holds both signs without one of them, so negative elements are not drawn), and `scale` from 112..135,
 * 2^-15..2^8 around Tensara's.
 */
export const mxfp8Dequantize = defineDequantizeProblem({
  name: 'mxfp8-dequantize',
  description:
    'MXFP8 to float32: out[i][j] = E4M3(q[i][j]) · 2^(scale[i][j/32] − 127), a row-major M×K matrix with one E8M0 ' +
    'scale byte per 32 elements of K (row-major M × K/32).',
  blockSize: 32,
  elementsPerByte: 1,
  qBytes: [0, 0x7f],
  scaleBytes: [112, 136],
})
