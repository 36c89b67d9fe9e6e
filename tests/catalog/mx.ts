import { mxfp4Dequantize } from '../../problems/mxfp4-dequantize/index.js'
import { mxfp4Gemm } from '../../problems/mxfp4-gemm/index.js'
import { mxfp8Dequantize } from '../../problems/mxfp8-dequantize/index.js'
import { mxfp8Gemm } from '../../problems/mxfp8-gemm/index.js'
import { mxfp8Quantize } from '../../problems/mxfp8-quantize/index.js'
import { mxfp4Quantize } from '../../problems/mxfp4-quantize/index.js'
import { nvfp4Quantize } from '../../problems/nvfp4-quantize/index.js'
import { nvfp4Dequantize } from '../../problems/nvfp4-dequantize/index.js'
import { nvfp4Gemm } from '../../problems/nvfp4-gemm/index.js'
import { exampleFile, fixtureFile, type Example, type Planted } from './types.js'

// Each block-scaled format problem's example is problems/<name>/solutions/<name with underscores>.cu.
export const examples: Example[] = [
  ...[mxfp8Dequantize, mxfp4Dequantize, nvfp4Dequantize, mxfp8Gemm, mxfp4Gemm, mxfp8Quantize, mxfp4Quantize].map((problem) => ({
    problem,
    solution: exampleFile(problem.name, `${problem.name.replaceAll('-', '_')}.cu`),
    dtype: 'float32' as const,
  })),
  { problem: nvfp4Gemm, solution: exampleFile('nvfp4-gemm', 'nvfp4_gemm.cu'), dtype: 'float16' },
  { problem: nvfp4Quantize, solution: exampleFile('nvfp4-quantize', 'nvfp4_quantize.cu'), dtype: 'float16' },
]

export const planted: Planted[] = [
  {
    // Swaps the two E2M1 codes of every byte: wrong wherever a byte's nibbles decode differently (15 of 16 pairs).
    problem: mxfp4Dequantize,
    solution: fixtureFile('wrong_mxfp4_dequantize_nibbles.cu'),
    dtype: 'float32',
    message: /out: \d+ of 1048576 elements out of tolerance \(rtol 0\.001, atol 0\.001\)/,
  },
  {
    // Reads the scales row-major instead of swizzled: wrong wherever the two layouts' scales differ.
    problem: nvfp4Dequantize,
    solution: fixtureFile('wrong_nvfp4_dequantize_row_major_scales.cu'),
    dtype: 'float32',
    message: /out: \d+ of 1048576 elements out of tolerance \(rtol 0\.001, atol 0\.001\)/,
  },
  {
    // Writes every scale one power of two too large: every nonzero element dequantizes to twice its value.
    problem: mxfp8Quantize,
    solution: fixtureFile('wrong_mxfp8_quantize_scale_off_by_one.cu'),
    dtype: 'float32',
    message: /dequantized \(decoded from q, scale\): \d+ of 1048576 elements out of tolerance \(rtol 0\.001, atol 0\.001\); first bad index \d+: expected -?[\d.e-]+, got -?[\d.e-]+; max abs error/,
  },
  {
    // Writes nothing: q and scale stay 0xFF, and an E8M0 0xFF scale is NaN.
    problem: mxfp4Quantize,
    solution: fixtureFile('wrong_mxfp4_quantize_untouched.cu'),
    dtype: 'float32',
    message: /dequantized \(decoded from q, scale\): 1048576 of 1048576 elements out of tolerance \(rtol 0\.001, atol 0\.001\), 1048576 NaN \(decoded from codes that are NaN/,
  },
  {
    // Writes the scales row-major instead of swizzled: most blocks are decoded with another block's scale.
    problem: nvfp4Quantize,
    solution: fixtureFile('wrong_nvfp4_quantize_row_major_scales.cu'),
    dtype: 'float16',
    message: /dequantized \(decoded from q, scale\): \d+ of 1048576 elements out of tolerance \(rtol 0\.001, atol 0\.001\)/,
  },
]
