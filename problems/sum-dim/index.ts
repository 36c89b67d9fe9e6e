import { defineReductionOverDim } from '../reduction-common/over-dim.js'

/**
 * Tensara's sum-dim: torch.sum(input, dim, keepdim=True) over a 3-D or 4-D tensor, inputs uniform in [-1, 1], the shape
 * array on the GPU (its def.py since June 2025), allclose with rtol 2e-4, atol 9e-4.
 */
export const sumDim = defineReductionOverDim({
  name: 'sum-dim',
  description: 'Sum over one dimension of a row-major tensor, the dimension kept with size 1.',
  output: { name: 'output', kind: 'output' },
  extent: 'size_t',
  memory: 'device',
  tolerance: { rtol: 2e-4, atol: 9e-4 },
  inputRange: [-1, 1],
})
