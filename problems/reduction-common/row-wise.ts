// What Tensara's row-wise problems on a row-major float32 matrix (rms-norm, log-softmax, l1-norm, l2-norm) share:
// the signature (const float* in, float* out, size_t rows, size_t cols) under each problem's own names, one output
// of the input's size, a case per (rows, cols) shape, FLOPs as a function of the shape, random shapes up to a
// limit for each side, and a CUDA reference named after the slug.
import { defineProblem, type Problem, type Tolerance } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'

export interface RowWiseSpec {
  readonly name: string
  readonly description: string
  /** Tensara's names of the input, the output, the row count and the row length, in its order. */
  readonly names: readonly [input: string, output: string, rows: string, cols: string]
  /** Tensara's (rows, cols) shapes. */
  readonly shapes: ReadonlyArray<readonly [rows: number, cols: number]>
  /** The case name Tensara gives a shape. */
  readonly caseName: (rows: number, cols: number) => string
  /** Tensara's FLOP count of a shape. */
  readonly flops: (rows: number, cols: number) => number
  readonly tolerance: Tolerance
  /** The largest row count and row length kernelProperty() draws. */
  readonly randomUpTo: readonly [rows: number, cols: number]
}

export function rowWiseProblem(spec: RowWiseSpec): Problem<'float32'> {
  const [input, output, rows, cols] = spec.names
  const shape = (params: Readonly<Record<string, number>>) => [params[rows]!, params[cols]!] as const
  return defineProblem({
    name: spec.name,
    description: spec.description,
    signature: [
      { name: input, kind: 'input' },
      { name: output, kind: 'output' },
      { name: rows, kind: 'scalar', ctype: 'size_t' },
      { name: cols, kind: 'scalar', ctype: 'size_t' },
    ],
    dtypes: ['float32'],
    cases: () => spec.shapes.map(([r, c]) => ({ name: spec.caseName(r, c), params: { [rows]: r, [cols]: c } })),
    elements: ({ params }) => {
      const [r, c] = shape(params)
      return { [input]: r * c, [output]: r * c }
    },
    flops: ({ params }) => spec.flops(...shape(params)),
    tolerance: { float32: spec.tolerance },
    reference: cudaReference(spec.name),
    shapes: { ranges: { [rows]: [1, spec.randomUpTo[0]], [cols]: [1, spec.randomUpTo[1]] } },
  })
}

/** Tensara's five (B, D) shapes of l1-norm and l2-norm (the same for both). */
const ROW_NORM_SHAPES: ReadonlyArray<readonly [B: number, D: number]> = [
  [128, 4096],
  [256, 4096],
  [128, 8192],
  [256, 8192],
  [128, 16384],
]

/**
 * l1-norm and l2-norm: Tensara's signature (X, Y, B, D), its five shapes named 'B=<B>, D=<D>', random shapes up to
 * 512 rows of 4096.
 */
export function rowNormProblem(spec: Pick<RowWiseSpec, 'name' | 'description' | 'flops' | 'tolerance'>): Problem<'float32'> {
  return rowWiseProblem({
    ...spec,
    names: ['X', 'Y', 'B', 'D'],
    shapes: ROW_NORM_SHAPES,
    caseName: (B, D) => `B=${B}, D=${D}`,
    randomUpTo: [512, 4096],
  })
}
