import { defineReductionOverDim } from '../reduction-common/over-dim.js'

/** Tensara's sum-dim: torch.sum(input, dim, keepdim=True) over a 3-D or 4-D tensor, inputs uniform in [-5, 5]. */
export const sumDim = defineReductionOverDim({
  name: 'sum-dim',
  description: 'Sum over one dimension of a row-major tensor, the dimension kept with size 1.',
  output: { name: 'output', kind: 'output' },
  extent: 'size_t',
  memory: 'host',
  tolerance: { rtol: 1e-3, atol: 1e-3 },
})
