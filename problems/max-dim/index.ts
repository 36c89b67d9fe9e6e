import { defineReductionOverDim } from '../reduction-common/over-dim.js'

/** Tensara's max-dim: torch.max(input, dim, keepdim=True) values over a 3-D or 4-D tensor, inputs uniform in [-5, 5]. */
export const maxDim = defineReductionOverDim({
  name: 'max-dim',
  description: 'Maximum over one dimension of a row-major tensor, the dimension kept with size 1.',
  output: { name: 'output', kind: 'output' },
  extent: 'size_t',
  memory: 'device',
  tolerance: { rtol: 1e-3, atol: 1e-3 },
})
