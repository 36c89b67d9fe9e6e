import { rowWiseProblem } from '../reduction-common/row-wise.js'

/** Tensara's rms-norm: Y = X / sqrt(mean(X^2, dim=1) + 1e-5) for X of B rows of N features. */
export const rmsNorm = rowWiseProblem({
  name: 'rms-norm',
  description: 'RMS normalisation of each row of a row-major B×N matrix: y = x / sqrt(mean(x²) + 1e-5), no scale.',
  names: ['X', 'Y', 'B', 'N'],
  shapes: [
    [1024, 1024],
    [1024, 4096],
    [2048, 8192],
    [512, 16384],
  ],
  caseName: (B, N) => `${B}x${N}`,
  // Tensara's count per row: N squares, N - 1 additions, 1 division, 1 addition (epsilon), 5 for the square root
  // and N divisions.
  flops: (B, N) => B * (3 * N + 6),
  tolerance: { rtol: 2e-4, atol: 1e-4 },
  randomUpTo: [2048, 2048],
})
