import { defineReductionOverDim } from '../reduction-common/over-dim.js'

/**
 * Tensara's product-dim (tensara/problems, problems/product-dim/def.py as of 32e682c): torch.prod(input, dim,
 * keepdim=True) over a 3-D or 4-D tensor, inputs uniform in [-2, 2], shape (size_t) in device memory. Long slices
 * multiply down to (near) zero; the loose tolerance is Tensara's.
 */
export const productDim = defineReductionOverDim({
  name: 'product-dim',
  description: 'Product over one dimension of a row-major tensor, the dimension kept with size 1.',
  output: { name: 'output', kind: 'output' },
  extent: 'size_t',
  memory: 'device',
  tolerance: { rtol: 2e-2, atol: 7e-3 },
  inputRange: [-2, 2],
})
