import { defineScan } from '../reduction-common/scan.js'

/**
 * Tensara's cumsum (tensara/problems, problems/cumsum/def.py as of 32e682c): torch.cumsum(input, dim=0) over N
 * float32 elements uniform in [-1, 1].
 */
export const cumsum = defineScan({
  name: 'cumsum',
  description: 'Inclusive prefix sum of a vector: output[i] = input[0] + … + input[i].',
  tolerance: { rtol: 3e-2, atol: 1e-2 },
  inputRange: [-1, 1],
})
