import { defineProblem } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'

/** Tensara's (size, K) pairs, in Tensara's order: a size³ volume and a K³ filter. */
const SHAPES: ReadonlyArray<readonly [size: number, k: number]> = [
  [64, 3],
  [32, 9],
  [96, 11],
  [128, 5],
  [256, 7],
  [512, 9],
]

/**
 * Tensara's conv-square-3d: C[i][j][k] = Σ_{x,y,z} A[i + x - (K-1)/2][j + y - (K-1)/2][k + z - (K-1)/2] · B[x][y][z]
 * over a row-major size³ volume and an odd K³ filter, zero padding outside the volume, so C is size³. Tensara's
 * statement writes A[i+x][j+y][k+z], uncentred; its reference, PyTorch's conv3d with padding K/2, centres the
 * filter, and so does this problem.
 */
export const convSquare3d = defineProblem({
  name: 'conv-square-3d',
  description:
    '3-D convolution of a row-major size×size×size volume A with an odd K×K×K filter B (K < size), centred, zero ' +
    'padding at the borders: C[i][j][k] = Σ_{x,y,z} A[i + x − (K−1)/2][j + y − (K−1)/2][k + z − (K−1)/2] · ' +
    'B[x][y][z], C is size³.',
  signature: [
    { name: 'A', kind: 'input' },
    { name: 'B', kind: 'input' },
    { name: 'C', kind: 'output' },
    { name: 'size', kind: 'scalar', ctype: 'size_t' },
    { name: 'K', kind: 'scalar', ctype: 'size_t' },
  ],
  dtypes: ['float32'],
  cases: () => SHAPES.map(([size, k]) => ({ name: `D=H=W=${size}, K=${k}`, params: { size, K: k } })),
  elements: ({ params: { size, K } }) => ({ A: size! ** 3, B: K! ** 3, C: size! ** 3 }),
  // Tensara's count: 2·K³ per output voxel (K³ multiplications and K³ − 1 additions, rounded up as conv-2d's).
  flops: ({ params: { size, K } }) => 2 * size! ** 3 * K! ** 3,
  // Tensara's own (looser than conv-1d's and conv-2d's 3e-3 / 3e-3 in atol); its inputs are uniform in [-1, 1] too.
  tolerance: { float32: { rtol: 1e-3, atol: 1e-2 } },
  reference: cudaReference('conv-square-3d'),
  shapes: {
    ranges: { size: [2, 64], K: [1, 15] },
    // Tensara: K is odd and smaller than size.
    valid: ({ size, K }) => K! % 2 === 1 && K! < size!,
  },
})
