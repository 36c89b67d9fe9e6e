// What Tensara's block-scaled dequantizations (mxfp8-, mxfp4-, nvfp4-dequantize) share: a row-major M×K matrix
// passed as packed bytes `q` and one scale byte per block of K, decoded to float32 `out`; Tensara's five shapes, its
// tolerance, and a CUDA reference named after the slug.
//
// Tensara quantizes uniform [-1, 1) data to make its inputs; here the bytes themselves are drawn uniformly, each
// input from its own range of bytes, so every element encoding and a spread of scales are exercised (the ranges are
// in each problem's definition, with what they leave out).
import { defineProblem, type Problem, type TestCase } from '../../src/spec/problem.js'
import type { ElementAlias, ParamSpec } from '../../src/spec/signature.js'
import { cudaReference } from '../cuda-reference.js'

/** Tensara's five shapes, M × K, named as Tensara names them. */
const SHAPES: readonly (readonly [m: number, k: number])[] = [
  [1024, 1024],
  [2048, 2048],
  [4096, 4096],
  [8192, 4096],
  [4096, 8192],
]

/** What sets one dequantization apart. */
export interface DequantizeSpec {
  readonly name: string
  readonly description: string
  /** Elements of K per scale: 32 for the MX formats, 16 for NVFP4. */
  readonly blockSize: number
  /** Elements per byte of `q`: 1 for FP8, 2 for FP4 (two E2M1 nibbles, the lower one first). */
  readonly elementsPerByte: number
  /** The bytes `q` and `scale` are drawn from, [lo, hi) (see the problem's definition for why). */
  readonly qBytes: readonly [number, number]
  readonly scaleBytes: readonly [number, number]
  /** Another element type `scale` may be declared with: Tensara types NVFP4's E4M3 scales "float8". */
  readonly scaleAlias?: ElementAlias
  /** Bytes of `scale` for an M×K matrix; by default one per block, M × K/blockSize. */
  readonly scaleBytesFor?: (m: number, k: number) => number
  /** Scalars between `scale` and `out` (NVFP4's global factor), and their value in every case. */
  readonly globals?: { readonly params: readonly ParamSpec[]; readonly values: Readonly<Record<string, number>> }
}

/** A Tensara dequantization: `(q, scale, [globals,] out, m, k)`, float32 out, its reference in cuda/references/<name>.cu. */
export function defineDequantizeProblem(spec: DequantizeSpec): Problem<'float32'> {
  const cases: TestCase[] = SHAPES.map(([m, k]) => ({ name: `${m} x ${k}`, params: { m, k, ...spec.globals?.values } }))
  return defineProblem({
    name: spec.name,
    description: spec.description,
    signature: [
      { name: 'q', kind: 'input', dtype: 'uint8', range: spec.qBytes },
      { name: 'scale', kind: 'input', dtype: 'uint8', range: spec.scaleBytes, elementAlias: spec.scaleAlias },
      ...(spec.globals?.params ?? []),
      { name: 'out', kind: 'output' },
      { name: 'm', kind: 'scalar', ctype: 'size_t' },
      { name: 'k', kind: 'scalar', ctype: 'size_t' },
    ],
    dtypes: ['float32'],
    cases: () => cases,
    elements: ({ params: { m, k } }) => ({
      q: (m! * k!) / spec.elementsPerByte,
      scale: spec.scaleBytesFor ? spec.scaleBytesFor(m!, k!) : (m! * k!) / spec.blockSize,
      out: m! * k!,
    }),
    // Tensara counts no FLOPs for a dequantization; one multiplication (element × scale) per element is counted here.
    flops: ({ params: { m, k } }) => m! * k!,
    // Tensara's torch.allclose(rtol=1e-3, atol=1e-3).
    tolerance: { float32: { rtol: 1e-3, atol: 1e-3 } },
    reference: cudaReference(spec.name),
    shapes: {
      ranges: { m: [1, 1024], k: [spec.blockSize, 1024] },
      // K must hold whole blocks (Tensara's rule), which also makes every row's bytes whole.
      valid: ({ k }) => k! % spec.blockSize === 0,
    },
  })
}
