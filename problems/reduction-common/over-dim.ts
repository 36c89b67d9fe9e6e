// What Tensara's reductions over one dimension (softmax, sum-dim, mean-dim, max-dim, min-dim, product-dim, argmax,
// argmin) share: the signature, test cases
// built from (shape, dim), the [outer][size][inner] view of the input, element counts and random shapes.
//
// Tensara passes the shape as an array after the output: `(input, int dim, output, shape*, ndim)`. A case keeps
// the extents as the parameters shape0 … shape3 (1 past ndim), so that kernelProperty() can draw them; the
// `shape` array the solution receives holds the first ndim of them.
import { defineProblem, type Problem, type ShapeSpace, type TestCase, type Tolerance } from '../../src/spec/problem.js'
import type { ArrayParam, ParamSpec } from '../../src/spec/signature.js'
import { cudaReference } from '../cuda-reference.js'

export const SHAPE_PARAMS = ['shape0', 'shape1', 'shape2', 'shape3'] as const

export interface OverDimConfig {
  readonly shape: readonly number[]
  readonly dim: number
}

/**
 * The (shape, dim) pairs Tensara tests sum-dim, mean-dim, max-dim, min-dim, product-dim, argmax and argmin on (the
 * same six for all of them).
 */
const REDUCTION_CONFIGS: readonly OverDimConfig[] = [
  { shape: [16, 128, 256], dim: 1 },
  { shape: [32, 512, 512], dim: 0 },
  { shape: [8, 1024, 1024], dim: 2 },
  { shape: [64, 128, 128, 128], dim: 2 },
  { shape: [4, 256, 256, 256], dim: 1 },
  { shape: [128, 64, 64, 64], dim: 3 },
]

/**
 * Tensara's `(input, int dim, output, shape, ndim)`. `extent` is the C type of shape's elements and of ndim;
 * `memory` is where Tensara puts the shape array (its def.py: on the GPU for softmax, sum-dim, max-dim, mean-dim and
 * product-dim, in host memory for min-dim, argmax and argmin).
 */
export function overDimSignature(output: ParamSpec, extent: ArrayParam['ctype'], memory: ArrayParam['memory']): ParamSpec[] {
  return [
    { name: 'input', kind: 'input' },
    { name: 'dim', kind: 'scalar', ctype: 'int' },
    output,
    { name: 'shape', kind: 'array', ctype: extent, memory, values: (params) => extentsOf(params) },
    { name: 'ndim', kind: 'scalar', ctype: extent },
  ]
}

/** The case's extents, shape0 … shape(ndim-1). */
function extentsOf(params: Readonly<Record<string, number>>): number[] {
  return SHAPE_PARAMS.slice(0, params.ndim).map((param) => params[param]!)
}

/** One case per config, named like '16x128x256, dim=1'. */
export function overDimCases(configs: readonly OverDimConfig[]): TestCase[] {
  return configs.map(({ shape, dim }) => {
    const name = `${shape.join('x')}, dim=${dim}`
    if (shape.length < 1 || shape.length > SHAPE_PARAMS.length) throw new Error(`case '${name}': 1 to 4 dimensions`)
    if (!Number.isInteger(dim) || dim < 0 || dim >= shape.length) throw new Error(`case '${name}': dim out of range`)
    const params: Record<string, number> = { dim, ndim: shape.length }
    SHAPE_PARAMS.forEach((param, d) => (params[param] = shape[d] ?? 1))
    return { name, params }
  })
}

/** The input seen as [outer][size][inner]: `size` is the extent of the reduced dimension. */
export interface SliceLayout {
  readonly outer: number
  readonly size: number
  readonly inner: number
}

export function sliceLayout({ params }: TestCase): SliceLayout {
  const dim = params.dim!
  const extents = extentsOf(params)
  const product = (values: number[]) => values.reduce((a, b) => a * b, 1)
  return { outer: product(extents.slice(0, dim)), size: extents[dim]!, inner: product(extents.slice(dim + 1)) }
}

/** Element counts of a reduction that keeps one value per slice (keepdim or not, the count is the same). */
function reducedElements(c: TestCase): { input: number; output: number } {
  const { outer, size, inner } = sliceLayout(c)
  return { input: outer * size * inner, output: outer * inner }
}

/**
 * Operations Tensara counts per slice of `size` elements: 'size - 1' additions, multiplications or comparisons
 * (sum, product, max, min, argmax, argmin), or 'size' for mean (its size - 1 additions and one division).
 */
export type SliceFlops = 'size - 1' | 'size'

function reductionFlops(perSlice: SliceFlops): (c: TestCase) => number {
  return (c) => {
    const { outer, size, inner } = sliceLayout(c)
    return outer * inner * (perSlice === 'size' ? size : size - 1)
  }
}

/**
 * Random 3-D shapes (up to 64 × 300 × 300, about 5.8 M elements) reduced over any of their dimensions. ndim and
 * shape3 keep the first default case's values, so that case must be 3-D (every problem here starts with one).
 */
export const OVER_DIM_SHAPES: ShapeSpace = {
  ranges: { shape0: [1, 64], shape1: [1, 300], shape2: [1, 300], dim: [0, 2] },
  valid: ({ dim, ndim }) => dim! < ndim!,
}

/** What sets the reductions over one dimension apart; the rest of their definition is the same. */
export interface ReductionOverDim {
  readonly name: string
  readonly description: string
  readonly output: ParamSpec
  readonly extent: ArrayParam['ctype']
  readonly memory: ArrayParam['memory']
  readonly tolerance: Tolerance
  /** Tensara's input range; [-5, 5] unless given. */
  readonly inputRange?: readonly [number, number]
  /** Tensara's operations per slice; 'size - 1' unless given. */
  readonly flops?: SliceFlops
}

/**
 * A Tensara reduction over one dimension: float32 inputs uniform in r.inputRange ([-5, 5] by default), the six
 * REDUCTION_CONFIGS cases, one output per slice, r.flops operations per slice (size - 1 by default), and its
 * reference in cuda/references/<name>.cu.
 */
export function defineReductionOverDim(r: ReductionOverDim): Problem<'float32'> {
  return defineProblem({
    name: r.name,
    description: r.description,
    signature: overDimSignature(r.output, r.extent, r.memory),
    dtypes: ['float32'],
    cases: () => overDimCases(REDUCTION_CONFIGS),
    elements: reducedElements,
    flops: reductionFlops(r.flops ?? 'size - 1'),
    tolerance: { float32: r.tolerance },
    reference: cudaReference(r.name),
    inputRange: r.inputRange ?? [-5, 5],
    shapes: OVER_DIM_SHAPES,
  })
}
