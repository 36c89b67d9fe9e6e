import { defineProblem, type ShapeSpace, type TestCase } from '../../src/spec/problem.js'
import type { ParamSpec } from '../../src/spec/signature.js'
import { cudaReference } from '../cuda-reference.js'

/** A 2-D convolution's (H, W, Kh, Kw): image rows and columns, filter rows and columns. */
export type Conv2dShape = readonly [h: number, w: number, kh: number, kw: number]

/** Tensara's (H, W, Kh, Kw) shapes, in Tensara's order. */
const SHAPES: readonly Conv2dShape[] = [
  [4096, 4096, 9, 9],
  [8192, 8192, 11, 11],
  [16384, 16384, 13, 13],
  [1024, 1024, 31, 31],
  [2048, 2048, 63, 63],
  [4096, 4096, 127, 127],
]

/** Cases named as Tensara names those of conv-2d and conv2d-relu-hardswish: 'H=…, W=…, Kh=…, Kw=…'. */
export function conv2dCases(shapes: readonly Conv2dShape[]): TestCase[] {
  return shapes.map(([h, w, kh, kw]) => ({ name: `H=${h}, W=${w}, Kh=${kh}, Kw=${kw}`, params: { H: h, W: w, Kh: kh, Kw: kw } }))
}

/** Where kernelProperty() draws a 2-D convolution's shapes from: Tensara's filter sides are odd, smaller than the image's. */
export const CONV_2D_SHAPE_SPACE: ShapeSpace = {
  ranges: { H: [2, 300], W: [2, 300], Kh: [1, 31], Kw: [1, 31] },
  valid: ({ H, W, Kh, Kw }) => Kh! % 2 === 1 && Kw! % 2 === 1 && Kh! < H! && Kw! < W!,
}

/**
 * A 2-D convolution's signature, (image, filter, output, H, W, Kh, Kw) under the problem's names for the three
 * buffers, and their element counts.
 */
export function conv2dBuffers(image: string, filter: string, output: string) {
  const signature: ParamSpec[] = [
    { name: image, kind: 'input' },
    { name: filter, kind: 'input' },
    { name: output, kind: 'output' },
    ...(['H', 'W', 'Kh', 'Kw'] as const).map((name) => ({ name, kind: 'scalar' as const, ctype: 'size_t' as const })),
  ]
  const elements = ({ params: { H, W, Kh, Kw } }: TestCase) => ({ [image]: H! * W!, [filter]: Kh! * Kw!, [output]: H! * W! })
  return { signature, elements }
}

/** Tensara's count: 2·Kh·Kw per output pixel (it rounds Kh·Kw multiplications + Kh·Kw − 1 additions up). */
export const conv2dFlops = ({ params: { H, W, Kh, Kw } }: TestCase) => 2 * H! * W! * Kh! * Kw!

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
  ...conv2dBuffers('A', 'B', 'C'),
  dtypes: ['float32'],
  cases: () => conv2dCases(SHAPES),
  flops: conv2dFlops,
  // Tensara's (a 127×127 filter sums 16129 products, whose fp32 rounding error, ~1e-4, stays inside atol 1e-3).
  tolerance: { float32: { rtol: 2e-4, atol: 1e-3 } },
  reference: cudaReference('conv-2d'),
  shapes: CONV_2D_SHAPE_SPACE,
})
