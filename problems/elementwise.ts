// What Tensara's elementwise matrix problems (relu, leaky-relu, gelu, the other activations, threshold, matrix-scalar) have in common: one input
// and one output matrix of the same size, row-major, so only the element count matters; float scalars that are
// passed through; the same three dtypes with the same half-type tolerances (an exact problem, threshold, is exact in
// all three); a CUDA reference named after the slug.
import type { Dtype } from '../src/spec/dtype.js'
import { defineProblem, type Problem, type TestCase, type Tolerance } from '../src/spec/problem.js'
import type { ParamSpec } from '../src/spec/signature.js'
import { cudaReference } from './cuda-reference.js'

const ELEMENTWISE_DTYPES = ['float32', 'float16', 'bfloat16'] as const satisfies readonly Dtype[]

/**
 * Tolerances of the half types. An elementwise result rounded once to the format can differ from the
 * reference's rounding of the exact value by one ulp, i.e. up to 2u relative (u = 2^-11 for fp16, 2^-8 for
 * bf16); a solution that also rounds a scalar or an intermediate to the format adds up to 2u more. So rtol is
 * just above 4u (2^-9 ≈ 1.95e-3, 2^-6 ≈ 1.56e-2). atol covers fp16 subnormals (quantum 6e-8, reached by
 * e.g. alpha·x with alpha = 0.01) and is small next to the typical |output| of inputs drawn from [-1, 1].
 */
export const HALF_TOLERANCES: Readonly<Record<'float16' | 'bfloat16', Tolerance>> = {
  float16: { rtol: 2e-3, atol: 1e-5 },
  bfloat16: { rtol: 1.6e-2, atol: 1e-5 },
}

/** Largest side drawn by kernelProperty(): a verification of a 2000×2000 matrix takes milliseconds. */
const MAX_RANDOM_SIDE = 2000

/**
 * Tensara's size parameters of relu, leaky-relu and gelu. Tensara passes [rows, cols] into (n, m), so n is the
 * row count M and m the column count N; an elementwise kernel only needs n·m.
 */
export const ROWS_COLS: readonly ParamSpec[] = [
  { name: 'n', kind: 'scalar', ctype: 'size_t' },
  { name: 'm', kind: 'scalar', ctype: 'size_t' },
]

/** The five rows × cols shapes of Tensara's relu and gelu. */
export const ACTIVATION_SHAPES: ReadonlyArray<readonly [rows: number, cols: number]> = [
  [4096, 4096],
  [6144, 4096],
  [4096, 7168],
  [4096, 8192],
  [8192, 8192],
]

/** A rows × cols case named as Tensara names it: '6144x4096', or '6144x4096, alpha=0.01' with extra parameters. */
export function rowsColsCase(rows: number, cols: number, extra: Readonly<Record<string, number>> = {}): TestCase {
  const suffix = Object.entries(extra).map(([key, value]) => `, ${key}=${value}`).join('')
  return { name: `${rows}x${cols}${suffix}`, params: { n: rows, m: cols, ...extra } }
}

export interface ElementwiseSpec {
  readonly name: string
  readonly description: string
  /** Tensara's parameter order: the input and output pointers, float scalars and size_t sizes. */
  readonly signature: readonly ParamSpec[]
  /** The size parameters whose product is the element count: ['n', 'm'] for rows × cols, ['n', 'n'] for n × n. */
  readonly dims: readonly string[]
  readonly cases: readonly TestCase[]
  readonly flopsPerElement: number
  /** Tensara's own tolerance; the half types get HALF_TOLERANCES unless `halfTolerances` says otherwise. */
  readonly float32: Tolerance
  /** The half types' tolerances where HALF_TOLERANCES do not fit (an exact problem is exact in every dtype). */
  readonly halfTolerances?: Readonly<Record<'float16' | 'bfloat16', Tolerance>>
  /** Where the inputs are drawn from, if not [-1, 1]. */
  readonly inputRange?: readonly [number, number]
}

export function elementwiseProblem(spec: ElementwiseSpec): Problem<(typeof ELEMENTWISE_DTYPES)[number]> {
  const count = ({ params }: TestCase) => spec.dims.reduce((product, dim) => product * (params[dim] ?? NaN), 1)
  const pointers = spec.signature.filter((p) => p.kind !== 'scalar').map((p) => p.name)
  return defineProblem({
    name: spec.name,
    description: spec.description,
    signature: spec.signature,
    dtypes: ELEMENTWISE_DTYPES,
    cases: () => spec.cases,
    elements: (c) => Object.fromEntries(pointers.map((name) => [name, count(c)])),
    flops: (c) => spec.flopsPerElement * count(c),
    tolerance: { float32: spec.float32, ...(spec.halfTolerances ?? HALF_TOLERANCES) },
    reference: cudaReference(spec.name),
    ...(spec.inputRange ? { inputRange: spec.inputRange } : {}),
    shapes: { ranges: Object.fromEntries([...new Set(spec.dims)].map((dim) => [dim, [1, MAX_RANDOM_SIDE] as const])) },
  })
}

/**
 * Tensara's activations of one matrix (sigmoid, tanh, swish, soft-plus, elu, selu, hard-sigmoid): the signature
 * (input, output, n, m) and the five ACTIVATION_SHAPES unless the spec gives its own.
 */
export function activationProblem(spec: Omit<ElementwiseSpec, 'signature' | 'dims' | 'cases'> & Partial<ElementwiseSpec>) {
  return elementwiseProblem({
    signature: [{ name: 'input', kind: 'input' }, { name: 'output', kind: 'output' }, ...ROWS_COLS],
    dims: ['n', 'm'],
    cases: ACTIVATION_SHAPES.map(([rows, cols]) => rowsColsCase(rows, cols)),
    ...spec,
  })
}
