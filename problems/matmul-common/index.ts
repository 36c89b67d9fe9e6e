// Pieces shared by the matrix-product problems (matmul-3d and -4d, the diagonal, triangular and symmetric products,
// matrix-power and the fused GEMM epilogues): their size scalars, outputs and cases.
import { defineProblem, type TestCase, type Tolerance } from '../../src/spec/problem.js'
import type { InputStructure, ParamSpec } from '../../src/spec/signature.js'
import { cudaReference } from '../cuda-reference.js'

/** Input matrices, in the order given. */
export const inputs = (...names: readonly string[]): ParamSpec[] => names.map((name) => ({ name, kind: 'input' }))

/** A float scalar (alpha, scale). */
export const floatScalar = (name: string): ParamSpec => ({ name, kind: 'scalar', ctype: 'float' })

/** size_t scalars, in the order given. */
export const sizes = (...names: readonly string[]): ParamSpec[] => names.map((name) => ({ name, kind: 'scalar', ctype: 'size_t' }))

/**
 * A product's output, starting at zero as for a BLAS call with β = 0: a kernel computing α·A·B + β·C may read it
 * (see the GEMM family).
 */
export const productOutput = (name: string): ParamSpec => ({ name, kind: 'output', initial: 'zero' })

/** Case names as Tensara writes them for A·B: rows×inner x inner×columns, e.g. '1024x1024 x 1024x512'. */
export const productName = (rows: readonly number[], inner: number, cols: number) => `${[...rows, inner].join('x')} x ${inner}x${cols}`

/** (input_a, input_b, output_c, n): Tensara's signature for the products of two n×n matrices, drawn with `structure`. */
export const squareProductSignature = (output: ParamSpec, structure?: InputStructure): ParamSpec[] => [
  ...['input_a', 'input_b'].map((name): ParamSpec => ({ name, kind: 'input', ...(structure && { structure }) })),
  output,
  ...sizes('n'),
]

/** Case names 'nxn' with their one parameter n. */
export const squareCases = (sizes: readonly number[]) => sizes.map((n) => ({ name: `${n}x${n}`, params: { n } }))

/** The three n×n matrices of a square product. */
export const squareElements = ({ params: { n } }: TestCase) => ({ input_a: n! * n!, input_b: n! * n!, output_c: n! * n! })

/**
 * Tensara's lower-trig-matmul and upper-trig-matmul (problems/<slug>/def.py as of 32e682c): C = tril(A)·tril(B)
 * or triu(A)·triu(B), Tensara's reference taking the triangles itself. A and B are drawn triangular, as Tensara's
 * are (zeros outside the triangle); C's other triangle must be written as zeros (outputs start as NaN).
 * FLOPs are Tensara's n(n+1)(n+2)/3: two per multiply-add of the triangles' product, Σ_i (i+1)(i+2)/2 of them.
 */
export function triangularMatmul(triangle: 'lower' | 'upper', tolerance: Tolerance) {
  const slug = triangle === 'lower' ? 'lower-trig-matmul' : 'upper-trig-matmul'
  const [name, zero] = triangle === 'lower' ? ['tril', 'above'] : ['triu', 'below'] as const
  return defineProblem({
    name: slug,
    description:
      `Product of two ${triangle} triangular n×n row-major matrices (zeros ${zero} the diagonal): C = ${name}(A)·${name}(B), ` +
      `${triangle} triangular too.`,
    signature: squareProductSignature({ name: 'output_c', kind: 'output' }, `${triangle}-triangular`),
    dtypes: ['float32'],
    cases: () => squareCases([2048, 4096, 6144, 8192]),
    elements: squareElements,
    flops: ({ params: { n } }) => (n! * (n! + 1) * (n! + 2)) / 3,
    tolerance: { float32: tolerance },
    reference: cudaReference(slug),
    shapes: { ranges: { n: [1, 2048] } },
  })
}

/** Tensara's four (M, N, K) of gemm-multiply-leakyrelu, matmul-swish-scaling and matmul-sigmoid-sum. */
const FUSED_DIMS: ReadonlyArray<readonly [number, number, number]> = [
  [512, 512, 512],
  [1024, 512, 1024],
  [512, 1024, 512],
  [1024, 1024, 1024],
]

/**
 * The fused GEMMs' cases, named as Tensara names them ('MxK x KxN'), with the per-case value of a scalar where the
 * problem has one (alpha, scale); Tensara leaves it out of the name.
 */
export function fusedCases(scalar?: { readonly name: string; readonly values: readonly number[] }): TestCase[] {
  return FUSED_DIMS.map(([M, N, K], i) => ({
    name: productName([M], K, N),
    params: { M, N, K, ...(scalar && { [scalar.name]: scalar.values[i]! }) },
  }))
}

/** Shapes for kernelProperty(): M, N and K up to Tensara's 1024. */
export const fusedShapes = { ranges: { M: [1, 1024], N: [1, 1024], K: [1, 1024] } } as const
