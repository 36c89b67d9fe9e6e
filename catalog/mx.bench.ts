// The block-scaled formats' examples: dequantizations that load 16 (FP8) or 4 (FP4) bytes per thread and store
// float4s (NVFP4's scales read from the swizzled layout), tiled fp32 GEMMs that decode MX operands into shared
// memory, and quantizations that share a block's largest magnitude among the threads that load it. Each problem's example is problems/<name>/solutions/<name with underscores>.cu.
import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { mxfp4Dequantize } from '../problems/mxfp4-dequantize/index.js'
import { mxfp4Gemm } from '../problems/mxfp4-gemm/index.js'
import { mxfp8Dequantize } from '../problems/mxfp8-dequantize/index.js'
import { mxfp8Gemm } from '../problems/mxfp8-gemm/index.js'
import { mxfp8Quantize } from '../problems/mxfp8-quantize/index.js'
import { mxfp4Quantize } from '../problems/mxfp4-quantize/index.js'
import { nvfp4Quantize } from '../problems/nvfp4-quantize/index.js'
import { nvfp4Dequantize } from '../problems/nvfp4-dequantize/index.js'
import { nvfp4Gemm } from '../problems/nvfp4-gemm/index.js'

describe('mx', () => {
  for (const problem of [mxfp8Dequantize, mxfp4Dequantize, nvfp4Dequantize, mxfp8Gemm, mxfp4Gemm, mxfp8Quantize, mxfp4Quantize]) {
    kernelBench(problem.name, { problem, solution: `../problems/${problem.name}/solutions/${problem.name.replaceAll('-', '_')}.cu` })
  }
  kernelBench('nvfp4-gemm', { problem: nvfp4Gemm, solution: '../problems/nvfp4-gemm/solutions/nvfp4_gemm.cu', dtype: 'float16' })
  kernelBench('nvfp4-quantize', { problem: nvfp4Quantize, solution: '../problems/nvfp4-quantize/solutions/nvfp4_quantize.cu', dtype: 'float16' })
})
