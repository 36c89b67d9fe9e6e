import { defineScan } from '../reduction-common/scan.js'

/**
 * Tensara's cumprod (tensara/problems, problems/cumprod/def.py as of 32e682c): torch.cumprod(input, dim=0) over N
 * float32 elements uniform in [0.9, 1.1] (Tensara keeps factors near 1; long prefixes still decay towards 0).
 */
export const cumprod = defineScan({
  name: 'cumprod',
  description: 'Inclusive prefix product of a vector: output[i] = input[0] · … · input[i].',
  tolerance: { rtol: 1e-2, atol: 2e-2 },
  inputRange: [0.9, 1.1],
})
