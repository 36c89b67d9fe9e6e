// What a kernel problem is: its signature, test cases, sizes, FLOP and byte counts, tolerances and reference.
// Problems are plain data plus pure functions, so everything here is testable without a GPU.
import path from 'node:path'
import { DTYPE_BYTES, type Dtype } from './dtype.js'
import { isBuffer, paramDtype, validateSignature, type ParamSpec } from './signature.js'

export interface TestCase {
  /** Shown in reports and used as the baseline key, e.g. '4096x4096x4096' or 'n = 2^20'. */
  readonly name: string
  /** Values of the signature's scalar parameters (and any other sizes the problem needs). */
  readonly params: Readonly<Record<string, number>>
}

export interface Tolerance {
  readonly rtol: number
  readonly atol: number
}

/**
 * How the correct output is computed on the GPU. A reference is never the code under test:
 * - `cuda`: a .cu file with an `extern "C"` function of the problem's signature (named `entry`, default
 *   'reference'), compiled with -DKB_T=<element type> so one file serves every dtype;
 * - `gemm`: cuBLAS without TF32, for signatures (a, b, c, m, n, k) with row-major C[m×n] = A[m×k]·B[k×n].
 */
/**
 * Where kernelProperty() draws random shapes from. Integer parameters named in `ranges` are drawn (inclusive);
 * every other case parameter keeps its value from the first default case.
 */
export interface ShapeSpace {
  readonly ranges: Readonly<Record<string, readonly [number, number]>>
  /** Rejects combinations the problem does not allow (e.g. a filter wider than its input). */
  readonly valid?: (params: Readonly<Record<string, number>>) => boolean
}

export type ReferenceSpec = { readonly kind: 'cuda'; readonly file: string; readonly entry?: string } | { readonly kind: 'gemm' }

export interface ProblemDefinition {
  readonly name: string
  readonly description?: string
  readonly signature: readonly ParamSpec[]
  readonly dtypes: readonly Dtype[]
  /** The default test cases for a dtype. */
  readonly cases: (dtype: Dtype) => readonly TestCase[]
  /** Element count of every input and output parameter for a case. */
  readonly elements: (c: TestCase) => Readonly<Record<string, number>>
  readonly flops: (c: TestCase) => number
  /** Fewest bytes the case must move; by default each input read once and each output written once. */
  readonly bytes?: (c: TestCase, dtype: Dtype) => number
  readonly tolerance: Partial<Readonly<Record<Dtype, Tolerance>>>
  readonly reference: ReferenceSpec
  /** Inputs are drawn uniformly from this range (never zeros); default [-1, 1]. */
  readonly inputRange?: readonly [number, number]
  /** Shapes for kernelProperty(); default: every integer scalar of the signature in 1..1024. */
  readonly shapes?: ShapeSpace
}

export interface Problem extends Required<Omit<ProblemDefinition, 'description' | 'shapes'>> {
  readonly description: string
  readonly shapes?: ShapeSpace
}

export function defineProblem(def: ProblemDefinition): Problem {
  validateSignature(def.signature, `problem '${def.name}'`)
  if (def.dtypes.length === 0) throw new Error(`problem '${def.name}': no dtypes`)
  for (const dtype of def.dtypes) {
    if (!def.tolerance[dtype]) throw new Error(`problem '${def.name}': no tolerance for ${dtype}`)
  }
  if (def.reference.kind === 'cuda' && !path.isAbsolute(def.reference.file)) {
    throw new Error(`problem '${def.name}': the reference file must be an absolute path (got ${def.reference.file})`)
  }
  return {
    description: '',
    inputRange: [-1, 1],
    bytes: (c, dtype) => defaultBytes(def.signature, def.elements(c), dtype),
    ...def,
  }
}

function defaultBytes(signature: readonly ParamSpec[], elements: Readonly<Record<string, number>>, dtype: Dtype): number {
  let total = 0
  for (const p of signature) {
    if (!isBuffer(p)) continue
    total += elementsOf(elements, p.name) * DTYPE_BYTES[paramDtype(p, dtype)]
  }
  return total
}

export function elementsOf(elements: Readonly<Record<string, number>>, name: string): number {
  const count = elements[name]
  if (count === undefined || !Number.isSafeInteger(count) || count <= 0) {
    throw new Error(`no element count for parameter '${name}' (got ${count})`)
  }
  return count
}

export function toleranceFor(problem: Problem, dtype: Dtype): Tolerance {
  const tolerance = problem.tolerance[dtype]
  if (!tolerance) {
    throw new Error(`problem '${problem.name}' does not support dtype ${dtype} (supported: ${problem.dtypes.join(', ')})`)
  }
  return tolerance
}
