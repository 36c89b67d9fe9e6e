import { defineProblem } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'

/** Tensara's four tensor shapes, 3-D to 5-D; the solution sees only their element count. */
const SHAPES: ReadonlyArray<readonly number[]> = [
  [4, 1024, 1024],
  [32, 128, 128],
  [8, 32, 256, 256],
  [4, 16, 32, 128, 128],
]

/**
 * Tensara's frobenius-norm (tensara/problems, problems/frobenius-norm/def.py as of 32e682c): the whole tensor divided
 * by its Frobenius norm, with no epsilon; the solution gets the element count `size` only.
 */
export const frobeniusNorm = defineProblem({
  name: 'frobenius-norm',
  description: 'Frobenius normalisation of a tensor of `size` elements: y = x / √(Σx²) over the whole tensor, no epsilon.',
  signature: [{ name: 'X', kind: 'input' }, { name: 'Y', kind: 'output' }, { name: 'size', kind: 'scalar', ctype: 'size_t' }],
  dtypes: ['float32'],
  // Named as Tensara names them, after the Python tuple of the shape.
  cases: () => SHAPES.map((shape) => ({ name: `shape=(${shape.join(', ')})`, params: { size: shape.reduce((a, b) => a * b, 1) } })),
  elements: ({ params: { size } }) => ({ X: size!, Y: size! }),
  // Tensara's count: size squares, size − 1 additions, 5 for the square root, size divisions.
  flops: ({ params: { size } }) => 3 * size! + 4,
  tolerance: { float32: { rtol: 3e-3, atol: 1e-6 } },
  reference: cudaReference('frobenius-norm'),
  shapes: { ranges: { size: [1, 4_000_000] } },
})
