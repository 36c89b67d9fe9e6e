// What Tensara's block-scaled quantizations (mxfp8-, mxfp4-, nvfp4-quantize) share: a row-major M×K matrix `a` coded
// into packed elements `q` and one scale byte per block of K, Tensara's four shapes, and its rule: both its
// reference's outputs and the solution's are dequantized, and the dequantized matrices compared with rtol = atol =
// 1e-3 (so any encoding of the same values passes). The CUDA reference, named after the slug, has the decoding too.
import type { Dtype } from '../../src/spec/dtype.js'
import { defineProblem, type Problem, type TestCase } from '../../src/spec/problem.js'
import type { ElementAlias, ParamSpec } from '../../src/spec/signature.js'
import { cudaReference } from '../cuda-reference.js'

/** Tensara's four shapes, M × K, named as Tensara names them. */
const SHAPES: readonly (readonly [m: number, k: number])[] = [
  [1024, 1024],
  [2048, 2048],
  [4096, 8192],
  [8192, 4096],
]

/** What sets one quantization apart. */
export interface QuantizeSpec<D extends Dtype> {
  readonly name: string
  readonly description: string
  /** The type of `a`: float32 for torchao's MX formats, float16 for FlashInfer's NVFP4. */
  readonly dtype: D
  /** Elements of K per scale: 32 for the MX formats, 16 for NVFP4. */
  readonly blockSize: number
  /** Elements per byte of `q`: 1 for FP8, 2 for FP4 (two E2M1 nibbles, the lower one first). */
  readonly elementsPerByte: number
  /** Another element type `scale` may be declared with: Tensara types NVFP4's E4M3 scales "float8". */
  readonly scaleAlias?: ElementAlias
  /** Bytes of `scale` for an M×K matrix; by default one per block, M × K/blockSize. */
  readonly scaleBytesFor?: (m: number, k: number) => number
  /** Scalars between `a` and `q` (NVFP4's global factor), and their value in every case. */
  readonly globals?: { readonly params: readonly ParamSpec[]; readonly values: Readonly<Record<string, number>> }
}

/** A Tensara quantization: `(a, [globals,] q, scale, m, k)`, its reference and decoding in cuda/references/<name>.cu. */
export function defineQuantizeProblem<const D extends Dtype>(spec: QuantizeSpec<D>): Problem<D> {
  const cases: TestCase[] = SHAPES.map(([m, k]) => ({ name: `${m} x ${k}`, params: { m, k, ...spec.globals?.values } }))
  return defineProblem({
    name: spec.name,
    description: spec.description,
    signature: [
      { name: 'a', kind: 'input' },
      ...(spec.globals?.params ?? []),
      { name: 'q', kind: 'output', dtype: 'uint8' },
      { name: 'scale', kind: 'output', dtype: 'uint8', elementAlias: spec.scaleAlias },
      { name: 'm', kind: 'scalar', ctype: 'size_t' },
      { name: 'k', kind: 'scalar', ctype: 'size_t' },
    ],
    dtypes: [spec.dtype],
    cases: () => cases,
    elements: ({ params: { m, k } }) => ({
      a: m! * k!,
      q: (m! * k!) / spec.elementsPerByte,
      scale: spec.scaleBytesFor ? spec.scaleBytesFor(m!, k!) : (m! * k!) / spec.blockSize,
    }),
    // Tensara counts no FLOPs for a quantization; two per element are counted here: its part of the block's largest
    // magnitude (one comparison) and its division by the block's scale (one multiplication).
    flops: ({ params: { m, k } }) => 2 * m! * k!,
    // Tensara's torch.allclose(rtol=1e-3, atol=1e-3) of the two dequantized matrices.
    tolerance: { [spec.dtype]: { rtol: 1e-3, atol: 1e-3 } },
    reference: cudaReference(spec.name),
    decode: { entry: 'decode', name: 'dequantized', dtype: 'float32', elements: ({ params: { m, k } }) => m! * k! },
    shapes: {
      ranges: { m: [1, 1024], k: [spec.blockSize, 1024] },
      // K must hold whole blocks (Tensara's rule for the MX formats, FlashInfer's for NVFP4).
      valid: ({ k }) => k! % spec.blockSize === 0,
    },
  })
}
