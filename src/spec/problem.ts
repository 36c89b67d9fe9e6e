// What a kernel problem is: its signature, test cases, sizes, FLOP and byte counts, tolerances and reference.
// Problems are plain data plus pure functions, so everything here is testable without a GPU.
import path from 'node:path'
import { DTYPE_BYTES, DTYPES, type Dtype } from './dtype.js'
import { inputRangeProblem, isBuffer, paramDtype, validateSignature, type InputRange, type ParamSpec } from './signature.js'
import { didYouMean } from './suggest.js'

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

/**
 * Outputs judged by what they decode to, where their bytes may rightly differ from the reference's (a quantization:
 * two encodings of one value, as Tensara judges mxfp8-quantize by dequantizing both sides): after each checked call,
 * `entry`, an `extern "C"` function in the reference's .cu file, decodes the solution's outputs and then the
 * reference's into a buffer each, and the two buffers are compared element by element with the problem's tolerance.
 * The function takes the problem's arguments in signature order (outputs read-only, see cDecodePrototype) and then
 * the decoded buffer, `elements` elements of `dtype`; `name` names it in messages.
 */
export interface DecodeSpec {
  readonly entry: string
  readonly name: string
  readonly dtype: Dtype
  readonly elements: (c: TestCase) => number
}

export type ReferenceSpec = { readonly kind: 'cuda'; readonly file: string; readonly entry?: string } | { readonly kind: 'gemm' }

/** `D`: the dtypes the problem has, so that a bench's `dtype` is checked against them where the type is known. */
export interface ProblemDefinition<D extends Dtype = Dtype> {
  readonly name: string
  readonly description?: string
  readonly signature: readonly ParamSpec[]
  readonly dtypes: readonly D[]
  /** The default test cases for a dtype. */
  readonly cases: (dtype: Dtype) => readonly TestCase[]
  /** Element count of every input and output parameter for a case. */
  readonly elements: (c: TestCase) => Readonly<Record<string, number>>
  readonly flops: (c: TestCase) => number
  /** Fewest bytes the case must move; by default each input read once and each output written once. */
  readonly bytes?: (c: TestCase, dtype: Dtype) => number
  readonly tolerance: Partial<Readonly<Record<Dtype, Tolerance>>>
  readonly reference: ReferenceSpec
  /** Inputs are drawn uniformly from this range (never zeros); default [-1, 1]. A uint64 input needs whole bounds (InputRange). */
  readonly inputRange?: InputRange
  /** Shapes for kernelProperty(); default: every integer scalar of the signature in 1..1024. */
  readonly shapes?: ShapeSpace
  /** Outputs compared by what they decode to, not element by element (needs a `cuda` reference). */
  readonly decode?: DecodeSpec
}

export interface Problem<D extends Dtype = Dtype> extends Required<Omit<ProblemDefinition<D>, 'description' | 'shapes' | 'decode'>> {
  readonly description: string
  readonly shapes?: ShapeSpace
  readonly decode?: DecodeSpec
}

/** A problem checked and with its defaults; `dtypes` written as a literal list narrows the problem's type to them. */
export function defineProblem<const D extends Dtype>(def: ProblemDefinition<D>): Problem<D> {
  validateSignature(def.signature, `problem '${def.name}'`)
  if (def.dtypes.length === 0) throw new Error(`problem '${def.name}': no dtypes`)
  for (const dtype of def.dtypes) {
    if (!def.tolerance[dtype]) throw new Error(`problem '${def.name}': no tolerance for ${dtype}`)
  }
  if (def.reference.kind === 'cuda' && !path.isAbsolute(def.reference.file)) {
    throw new Error(`problem '${def.name}': the reference file must be an absolute path (got ${def.reference.file})`)
  }
  if (def.decode) validateDecode(def.decode, def)
  const problem: Problem<D> = {
    description: '',
    inputRange: [-1, 1],
    bytes: (c, dtype) => defaultBytes(def.signature, def.elements(c), dtype),
    ...def,
  }
  checkInputRanges(problem)
  return problem
}

/** Every input's range can be drawn for every dtype of the problem (see inputRangeProblem). */
function checkInputRanges(problem: Problem): void {
  for (const dtype of problem.dtypes) {
    for (const p of problem.signature) {
      if (p.kind !== 'input') continue
      const why = inputRangeProblem(p.range ?? problem.inputRange, paramDtype(p, dtype))
      if (why) throw new Error(`problem '${problem.name}': input '${p.name}' (${dtype}): ${why}`)
    }
  }
}

function validateDecode(decode: DecodeSpec, def: ProblemDefinition): void {
  const where = `problem '${def.name}': decode '${decode.entry}'`
  if (def.reference.kind !== 'cuda') throw new Error(`${where} lives in the reference's .cu file, but the reference is ${def.reference.kind}`)
  if (decode.entry === (def.reference.entry ?? 'reference')) throw new Error(`${where} has the reference's own name`)
  validateSignature([...def.signature, { name: decode.name, kind: 'input' }], `${where}'s decoded buffer`)
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
  if (!tolerance) throw new Error(noVariantMessage(problem, dtype))
  return tolerance
}

type ProblemDtypes = Pick<Problem, 'name' | 'dtypes'>

/** "matrix-multiplication has no float64 variant (it has: float32, float16, bfloat16)" */
export function noVariantMessage(problem: ProblemDtypes, dtype: string): string {
  return `${problem.name} has no ${dtype} variant (it has: ${problem.dtypes.join(', ')})`
}

/**
 * The dtype `value` names, if the problem has it; otherwise throws, naming the argument (`label`, e.g. 'option
 * dtype' or '--dtype'), what was given and the problem's dtypes.
 */
export function problemDtype(problem: ProblemDtypes, value: unknown, label: string): Dtype {
  const has = problem.dtypes.join(', ')
  if (typeof value !== 'string') throw new Error(`${label} must be one of ${has} (got ${typeof value === 'object' ? JSON.stringify(value) : String(value)})`)
  if (!(DTYPES as readonly string[]).includes(value)) throw new Error(`${label}: unknown dtype '${value}'${didYouMean(value, problem.dtypes)}; ${problem.name} has ${has}`)
  if (!problem.dtypes.includes(value as Dtype)) throw new Error(`${label}: ${noVariantMessage(problem, value)}`)
  return value as Dtype
}
