import { packagePath } from '../../src/paths.js'
import { defineProblem } from '../../src/problem.js'
import {
  OVER_DIM_SHAPES,
  REDUCTION_CONFIGS,
  overDimCases,
  overDimSignature,
  reducedElements,
  reductionFlops,
} from '../reduction-common/over-dim.js'

/** Tensara's argmax: torch.argmax(input, dim) as int32 over a 3-D or 4-D tensor, inputs uniform in [-5, 5]. */
export const argmax = defineProblem({
  name: 'argmax',
  description:
    'Index of the maximum along one dimension of a row-major tensor (the first on ties), as int32; the dimension ' +
    'is removed.',
  signature: overDimSignature({ name: 'output', kind: 'output', dtype: 'int32' }, 'int', 'host'),
  dtypes: ['float32'],
  cases: () => overDimCases(REDUCTION_CONFIGS),
  elements: reducedElements,
  flops: reductionFlops,
  // Indices are exact: Tensara compares with torch.all(actual == expected).
  tolerance: { float32: { rtol: 0, atol: 0 } },
  reference: { kind: 'cuda', file: packagePath('cuda/references/argmax.cu') },
  inputRange: [-5, 5],
  shapes: OVER_DIM_SHAPES,
})
