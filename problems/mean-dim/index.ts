import { defineReductionOverDim } from '../reduction-common/over-dim.js'

/**
 * Tensara's mean-dim (tensara/problems, problems/mean-dim/def.py as of 32e682c): torch.mean(input, dim,
 * keepdim=True) over a 3-D or 4-D tensor, inputs uniform in [-1, 1], shape (size_t) in device memory, and
 * size FLOPs per slice (Tensara counts the division as one).
 */
export const meanDim = defineReductionOverDim({
  name: 'mean-dim',
  description: 'Mean over one dimension of a row-major tensor, the dimension kept with size 1.',
  output: { name: 'output', kind: 'output' },
  extent: 'size_t',
  memory: 'device',
  tolerance: { rtol: 2e-4, atol: 7e-6 },
  inputRange: [-1, 1],
  flops: 'size',
})
