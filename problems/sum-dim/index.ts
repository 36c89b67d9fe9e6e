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

/** Tensara's sum-dim: torch.sum(input, dim, keepdim=True) over a 3-D or 4-D tensor, inputs uniform in [-5, 5]. */
export const sumDim = defineProblem({
  name: 'sum-dim',
  description:
    'Sum over one dimension of a row-major tensor, the dimension kept with size 1.',
  signature: overDimSignature({ name: 'output', kind: 'output' }, 'size_t', 'host'),
  dtypes: ['float32'],
  cases: () => overDimCases(REDUCTION_CONFIGS),
  elements: reducedElements,
  flops: reductionFlops,
  tolerance: { float32: { rtol: 1e-3, atol: 1e-3 } },
  reference: { kind: 'cuda', file: packagePath('cuda/references/sum-dim.cu') },
  inputRange: [-5, 5],
  shapes: OVER_DIM_SHAPES,
})
