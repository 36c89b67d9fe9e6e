// The reduction family's examples: warp-per-row and column-block reductions, online softmax, and the two norms.
import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { argmax } from '../problems/argmax/index.js'
import { layerNorm } from '../problems/layer-norm/index.js'
import { maxDim } from '../problems/max-dim/index.js'
import { rmsNorm } from '../problems/rms-norm/index.js'
import { softmax } from '../problems/softmax/index.js'
import { sumDim } from '../problems/sum-dim/index.js'

describe('reductions over one dimension', () => {
  kernelBench('sum-dim', { problem: sumDim, solution: '../problems/sum-dim/solutions/sum_dim.cu' })
  kernelBench('max-dim', { problem: maxDim, solution: '../problems/max-dim/solutions/max_dim.cu' })
  kernelBench('argmax', { problem: argmax, solution: '../problems/argmax/solutions/argmax.cu' })
  kernelBench('online softmax', { problem: softmax, solution: '../problems/softmax/solutions/softmax.cu' })
})

describe('normalisation', () => {
  kernelBench('rms-norm, block per row', { problem: rmsNorm, solution: '../problems/rms-norm/solutions/rms_norm.cu' })
  kernelBench('layer-norm, chunked rows', { problem: layerNorm, solution: '../problems/layer-norm/solutions/layer_norm.cu' })
})
