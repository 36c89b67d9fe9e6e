import { defineReductionOverDim } from '../reduction-common/over-dim.js'

/**
 * Tensara's argmin (tensara/problems, problems/argmin/def.py as of 32e682c): torch.argmin(input, dim) as int32 over
 * a 3-D or 4-D tensor, inputs uniform in [-5, 5], shape (int) in host memory.
 */
export const argmin = defineReductionOverDim({
  name: 'argmin',
  description:
    'Index of the minimum along one dimension of a row-major tensor (the first on ties), as int32; the dimension ' +
    'is removed.',
  output: { name: 'output', kind: 'output', dtype: 'int32' },
  extent: 'int',
  memory: 'host',
  // Indices are exact: Tensara compares with torch.all(actual == expected).
  tolerance: { rtol: 0, atol: 0 },
})
