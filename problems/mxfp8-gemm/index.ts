import { defineMxGemmProblem } from '../mx-common/gemm.js'

/**
 * Tensara's mxfp8-gemm (torch's scaled_mm, BlockWise1x32 E8M0 scales, SWIZZLE_32_4_4): C = A·Bᵀ of two MXFP8
 * matrices, decoded in software and accumulated in fp32 here (see the family module for Hopper).
 *
 * Tensara's inputs are randn data quantized by torchao (scales about 2^-7). Here `q_a` and `q_b` are drawn from
 * 0x00..0x7E, the finite non-negative E4M3 codes (0x7F and 0xFF are NaN; no range of bytes holds both signs without
 * one of them), and the scales from 112..127 (2^-15..2^0), so that sums of k products stay moderate.
 */
export const mxfp8Gemm = defineMxGemmProblem({
  name: 'mxfp8-gemm',
  description:
    'C = A·Bᵀ in float32 of MXFP8 matrices A (m×k) and B (n×k): E4M3 elements, one E8M0 scale per 32 along k in the ' +
    '128×4 swizzled layout.',
  elementsPerByte: 1,
  qBytes: [0, 0x7f],
  scaleBytes: [112, 128],
})
