import { defineReductionOverDim } from '../reduction-common/over-dim.js'

/**
 * Tensara's min-dim (tensara/problems, problems/min-dim/def.py as of 32e682c): torch.min(input, dim,
 * keepdim=True) values over a 3-D or 4-D tensor, inputs uniform in [-5, 5], shape (size_t) in host memory.
 */
export const minDim = defineReductionOverDim({
  name: 'min-dim',
  description: 'Minimum over one dimension of a row-major tensor, the dimension kept with size 1.',
  output: { name: 'output', kind: 'output' },
  extent: 'size_t',
  memory: 'host',
  tolerance: { rtol: 1e-3, atol: 1e-3 },
})
