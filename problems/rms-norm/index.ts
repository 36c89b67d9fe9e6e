import { packagePath } from '../../src/spec/paths.js'
import { defineProblem } from '../../src/spec/problem.js'

const SHAPES: ReadonlyArray<readonly [number, number]> = [
  [1024, 1024],
  [1024, 4096],
  [2048, 8192],
  [512, 16384],
]

/** Tensara's rms-norm: Y = X / sqrt(mean(X^2, dim=1) + 1e-5) for X of B rows of N features. */
export const rmsNorm = defineProblem({
  name: 'rms-norm',
  description: 'RMS normalisation of each row of a row-major B×N matrix: y = x / sqrt(mean(x²) + 1e-5), no scale.',
  signature: [
    { name: 'X', kind: 'input' },
    { name: 'Y', kind: 'output' },
    { name: 'B', kind: 'scalar', ctype: 'size_t' },
    { name: 'N', kind: 'scalar', ctype: 'size_t' },
  ],
  dtypes: ['float32'],
  cases: () => SHAPES.map(([B, N]) => ({ name: `${B}x${N}`, params: { B, N } })),
  elements: ({ params: { B, N } }) => ({ X: B! * N!, Y: B! * N! }),
  // Tensara's count per row: N squares, N - 1 additions, 1 division, 1 addition (epsilon), 5 for the square root
  // and N divisions.
  flops: ({ params: { B, N } }) => B! * (3 * N! + 6),
  tolerance: { float32: { rtol: 1e-4, atol: 1e-5 } },
  reference: { kind: 'cuda', file: packagePath('cuda/references/rms-norm.cu') },
  shapes: { ranges: { B: [1, 2048], N: [1, 2048] } },
})
