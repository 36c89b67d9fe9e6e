import { argmax } from '../../problems/argmax/index.js'
import { argmin } from '../../problems/argmin/index.js'
import { cumprod } from '../../problems/cumprod/index.js'
import { cumsum } from '../../problems/cumsum/index.js'
import { layerNorm } from '../../problems/layer-norm/index.js'
import { maxDim } from '../../problems/max-dim/index.js'
import { meanDim } from '../../problems/mean-dim/index.js'
import { minDim } from '../../problems/min-dim/index.js'
import { productDim } from '../../problems/product-dim/index.js'
import { rmsNorm } from '../../problems/rms-norm/index.js'
import { softmax } from '../../problems/softmax/index.js'
import { sumDim } from '../../problems/sum-dim/index.js'
import { exampleFile, fixtureFile, type Example, type Planted } from './types.js'

export const examples: Example[] = [
  { problem: softmax, solution: exampleFile('softmax', 'softmax.cu'), dtype: 'float32' },
  { problem: layerNorm, solution: exampleFile('layer-norm', 'layer_norm.cu'), dtype: 'float32' },
  { problem: rmsNorm, solution: exampleFile('rms-norm', 'rms_norm.cu'), dtype: 'float32' },
  { problem: sumDim, solution: exampleFile('sum-dim', 'sum_dim.cu'), dtype: 'float32' },
  { problem: maxDim, solution: exampleFile('max-dim', 'max_dim.cu'), dtype: 'float32' },
  { problem: argmax, solution: exampleFile('argmax', 'argmax.cu'), dtype: 'float32' },
  { problem: meanDim, solution: exampleFile('mean-dim', 'mean_dim.cu'), dtype: 'float32' },
  { problem: minDim, solution: exampleFile('min-dim', 'min_dim.cu'), dtype: 'float32' },
  { problem: productDim, solution: exampleFile('product-dim', 'product_dim.cu'), dtype: 'float32' },
  { problem: argmin, solution: exampleFile('argmin', 'argmin.cu'), dtype: 'float32' },
  { problem: cumsum, solution: exampleFile('cumsum', 'cumsum.cu'), dtype: 'float32' },
  { problem: cumprod, solution: exampleFile('cumprod', 'cumprod.cu'), dtype: 'float32' },
]

/** sum-dim as Tensara users write it, with the shape read on the host (see the file). */
export const dropIns: Example[] = [{ problem: sumDim, solution: fixtureFile('sum_dim_shape_anywhere.cu'), dtype: 'float32' }]

// The indices and values below were worked out on the CPU from the harness's seeded fill of each first default case
// ('16x128x256, dim=1' and '1024x1024').
export const planted: Planted[] = [
  {
    // Skips the last element of each slice: wrong exactly where the maximum is at index 127 (42 of 4096 slices).
    problem: argmax,
    solution: fixtureFile('wrong_reduction_argmax.cu'),
    dtype: 'float32',
    message: /output: 42 of 4096 elements out of tolerance \(rtol 0, atol 0\); first bad index 101: expected 127, got 23;/,
  },
  {
    // Divides the sum of squares by N - 1: every output about 0.05% off, beyond rtol 2e-4 and atol 1e-4 from |y| > 0.33 on
    // (838,700 of the outputs on an H200).
    problem: rmsNorm,
    solution: fixtureFile('wrong_reduction_rms_norm.cu'),
    dtype: 'float32',
    message: /Y: \d+ of 1048576 elements out of tolerance \(rtol 0\.0002, atol 0\.0001\); first bad index 1: expected -0\.54868/,
  },
]
