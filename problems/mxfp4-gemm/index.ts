import { defineMxGemmProblem } from '../mx-common/gemm.js'

/**
 * Tensara's mxfp4-gemm (torch's scaled_mm on float4_e2m1fn_x2, BlockWise1x32 E8M0 scales, SWIZZLE_32_4_4): C = A·Bᵀ
 * of two MXFP4 matrices, decoded in software and accumulated in fp32 here (see the family module for Hopper).
 *
 * Tensara's inputs are randn data quantized by torchao (scales about 2^-1). Here `q_a` and `q_b` are drawn from
 * every byte (every pair of E2M1 codes is a value) and the scales from 112..127 (2^-15..2^0).
 */
export const mxfp4Gemm = defineMxGemmProblem({
  name: 'mxfp4-gemm',
  description:
    'C = A·Bᵀ in float32 of MXFP4 matrices A (m×k) and B (n×k): E2M1 elements two per byte (the even element in the ' +
    'low nibble), one E8M0 scale per 32 along k in the 128×4 swizzled layout.',
  elementsPerByte: 2,
  qBytes: [0, 256],
  scaleBytes: [112, 128],
})
