import { packagePath } from '../../src/spec/paths.js'
import { defineProblem } from '../../src/spec/problem.js'

/** Tensara's (H, W, Kh, Kw) shapes, in Tensara's order. */
const SHAPES: ReadonlyArray<readonly [h: number, w: number, kh: number, kw: number]> = [
  [4096, 4096, 9, 9],
  [8192, 8192, 11, 11],
  [16384, 16384, 13, 13],
  [1024, 1024, 31, 31],
  [2048, 2048, 63, 63],
  [4096, 4096, 127, 127],
]

/**
 * Tensara's conv-2d: C[r][c] = Σ_{u,v} A[r + u - (Kh-1)/2][c + v - (Kw-1)/2] · B[u][v] over an H×W image and an
 * odd Kh×Kw filter, all row-major, zero padding outside the image, so C is H×W (PyTorch's conv2d with padding
 * (Kh/2, Kw/2), a cross-correlation).
 */
export const conv2d = defineProblem({
  name: 'conv-2d',
  description:
    '2-D convolution of a row-major H×W image A with an odd Kh×Kw filter B (Kh < H, Kw < W), centred, zero padding ' +
    'at the borders: C[r][c] = Σ_{u,v} A[r + u − (Kh−1)/2][c + v − (Kw−1)/2] · B[u][v], C is H×W.',
  signature: [
    { name: 'A', kind: 'input' },
    { name: 'B', kind: 'input' },
    { name: 'C', kind: 'output' },
    { name: 'H', kind: 'scalar', ctype: 'size_t' },
    { name: 'W', kind: 'scalar', ctype: 'size_t' },
    { name: 'Kh', kind: 'scalar', ctype: 'size_t' },
    { name: 'Kw', kind: 'scalar', ctype: 'size_t' },
  ],
  dtypes: ['float32'],
  cases: () => SHAPES.map(([h, w, kh, kw]) => ({ name: `H=${h}, W=${w}, Kh=${kh}, Kw=${kw}`, params: { H: h, W: w, Kh: kh, Kw: kw } })),
  elements: ({ params: { H, W, Kh, Kw } }) => ({ A: H! * W!, B: Kh! * Kw!, C: H! * W! }),
  // Tensara's count: 2·Kh·Kw per output pixel (it rounds Kh·Kw multiplications + Kh·Kw − 1 additions up).
  flops: ({ params: { H, W, Kh, Kw } }) => 2 * H! * W! * Kh! * Kw!,
  // Tensara's GEMM_CONV category (as conv-1d). Its older inline 1e-5 cannot be met by an fp32-accumulating kernel
  // against an exact reference: a 127×127 filter sums 16129 products, whose fp32 rounding error (~1e-4) exceeds
  // 1e-5 + 1e-5·|C| wherever |C| is small. Its image is drawn from [-5, 5]; one range serves all inputs here, [-1, 1].
  tolerance: { float32: { rtol: 3e-3, atol: 3e-3 } },
  reference: { kind: 'cuda', file: packagePath('cuda/references/conv-2d.cu') },
  shapes: {
    ranges: { H: [2, 300], W: [2, 300], Kh: [1, 31], Kw: [1, 31] },
    // Tensara: both filter sizes are odd and smaller than the image's.
    valid: ({ H, W, Kh, Kw }) => Kh! % 2 === 1 && Kw! % 2 === 1 && Kh! < H! && Kw! < W!,
  },
})
