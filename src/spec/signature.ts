// A problem's function signature, and the two things derived from it: the C prototype the solution must have
// (checked by the compiler) and the koffi parameter types used to call it. Nothing is written per problem.
import { DTYPE_CTYPE, type Dtype } from './dtype.js'

export type ScalarCType = 'size_t' | 'int' | 'float' | 'double' | 'uint64_t'

/**
 * Element types a uint8 buffer may be declared with instead: `__nv_fp8_e4m3` (cuda_fp8.h) for the bytes Tensara types
 * "float8" (NVFP4's scales), which its starter spells `uint8_t` and its solutions may spell as the E4M3 type.
 */
export type ElementAlias = '__nv_fp8_e4m3'

/**
 * Where an input's elements are drawn from, [lo, hi). Bigint bounds are for uint64 inputs whose integers a number
 * cannot hold exactly (beyond 2^53, such as the field elements below 2^61 - 1): they are drawn as integers, lo … hi - 1.
 */
export type InputRange = readonly [number, number] | readonly [bigint, bigint]

/** The largest uint64_t, the bound of a uint64_t scalar's value and of a uint64 input's range. */
const UINT64_MAX = 2n ** 64n - 1n

/**
 * A small read-only array of integers built from the case's parameters, such as Tensara's `shape` for the
 * reductions over one dimension. `memory` says where the solution finds it: 'device' memory, or 'host' memory
 * (page-locked, so a kernel given the pointer can read it too).
 */
export interface ArrayParam {
  readonly name: string
  readonly kind: 'array'
  readonly ctype: 'size_t' | 'int'
  readonly memory: 'device' | 'host'
  readonly values: (params: Readonly<Record<string, number>>) => readonly number[]
}

/**
 * An input that is a square matrix (√count elements on a side, row-major) drawn with a structure, as a problem's
 * inputs are defined: zeros above the diagonal ('lower-triangular') or below it ('upper-triangular'), or the upper
 * triangle a mirror of the lower ('symmetric').
 */
export type InputStructure = 'lower-triangular' | 'upper-triangular' | 'symmetric'

export type ParamSpec =
  /**
   * `range`: where this input is drawn from, where it differs from the problem's `inputRange` (the packed bytes and
   * the scales of a quantized matrix need different ranges; a uint8 range [lo, hi) gives the bytes lo..hi-1).
   * `elementAlias` (inputs and outputs): another element type a solution may declare the buffer with, of the same
   * size, as cPrototypeAlternatives spells it.
   */
  | {
      readonly name: string
      readonly kind: 'input'
      readonly dtype?: Dtype
      readonly structure?: InputStructure
      readonly range?: InputRange
      readonly elementAlias?: ElementAlias
    }
  /**
   * `initial`: what the output holds when a verified call starts. By default NaN, so an element the solution never
   * writes cannot pass; 'zero' where the problem defines the output as starting at zero, so that a kernel that reads
   * it first (C = α·A·B + β·C reads C even with β = 0, and NaN · 0 is NaN) is served as its BLAS caller would serve it.
   */
  | { readonly name: string; readonly kind: 'output'; readonly dtype?: Dtype; readonly initial?: 'zero'; readonly elementAlias?: ElementAlias }
  /**
   * `value`: the scalar's value in every case, where the problem fixes it (a modulus, say); the cases then do not give
   * it. A bigint for a uint64_t that a number cannot hold exactly (beyond 2^53); koffi passes it as the 64-bit integer.
   */
  | { readonly name: string; readonly kind: 'scalar'; readonly ctype: ScalarCType; readonly value?: number | bigint }
  | ArrayParam

/** The parameters whose buffers the harness allocates and fills (inputs) or checks (outputs). */
export type BufferParam = Extract<ParamSpec, { kind: 'input' | 'output' }>

export function isBuffer(p: ParamSpec): p is BufferParam {
  return p.kind === 'input' || p.kind === 'output'
}

export type ScalarParam = Extract<ParamSpec, { kind: 'scalar' }>

/** A scalar whose value each case gives (in its params), as opposed to one the problem fixes. */
export function isCaseScalar(p: ParamSpec): p is ScalarParam {
  return p.kind === 'scalar' && p.value === undefined
}

/** Why a fixed scalar value does not fit its C type, or undefined when it does. */
function scalarValueProblem(ctype: ScalarCType, value: number | bigint): string | undefined {
  if (typeof value === 'bigint') {
    if (ctype !== 'uint64_t') return `a bigint is only for a uint64_t (this is ${ctype === 'int' ? 'an' : 'a'} ${ctype})`
    return value >= 0n && value <= UINT64_MAX ? undefined : `${value} is outside uint64_t's 0 … 2^64 - 1`
  }
  if (ctype === 'float' || ctype === 'double') return Number.isFinite(value) ? undefined : `${value} is not finite`
  if (!Number.isSafeInteger(value)) return `${value} is not a whole number a number holds exactly (give a uint64_t beyond 2^53 as a bigint)`
  if (ctype === 'int') return value >= -(2 ** 31) && value < 2 ** 31 ? undefined : `${value} is outside int's range`
  return value >= 0 ? undefined : `${value} is negative, and ${ctype} is unsigned`
}

/**
 * Why `range` cannot be drawn for an input of `dtype`, or undefined when it can: a uint64 input is drawn as integers
 * (exactly, whatever their size), so its bounds must be whole numbers with 0 <= lo < hi <= 2^64 - 1; bigint bounds are
 * for uint64 inputs only.
 */
export function inputRangeProblem(range: InputRange, dtype: Dtype): string | undefined {
  const [lo, hi] = range
  const integers = typeof lo === 'bigint' || (Number.isSafeInteger(lo) && Number.isSafeInteger(hi))
  if (dtype !== 'uint64') return typeof lo === 'bigint' ? `bigint bounds are for uint64 inputs only (this one is ${dtype})` : undefined
  if (!integers) return `a uint64 input is drawn as integers: give whole bounds (got [${lo}, ${hi}))`
  const [low, high] = [BigInt(lo), BigInt(hi)]
  return low >= 0n && low < high && high <= UINT64_MAX ? undefined : `a uint64 range needs 0 <= lo < hi <= 2^64 - 1 (got [${lo}, ${hi}))`
}

const IDENTIFIER = /^[A-Za-z_]\w*$/

export function validateSignature(signature: readonly ParamSpec[], where: string): void {
  if (!signature.some((p) => p.kind === 'output')) throw new Error(`${where}: the signature has no output parameter`)
  const seen = new Set<string>()
  for (const p of signature) {
    if (!IDENTIFIER.test(p.name)) throw new Error(`${where}: parameter name '${p.name}' is not a C identifier`)
    if (seen.has(p.name)) throw new Error(`${where}: parameter '${p.name}' appears twice`)
    seen.add(p.name)
    const valueProblem = p.kind === 'scalar' && p.value !== undefined ? scalarValueProblem(p.ctype, p.value) : undefined
    if (valueProblem) throw new Error(`${where}: scalar '${p.name}': ${valueProblem}`)
  }
}

/** The element type of a buffer parameter: its own, or the bench's dtype. */
export function paramDtype(p: ParamSpec, dtype: Dtype): Dtype {
  if (!isBuffer(p)) throw new Error(`parameter '${p.name}' is ${p.kind === 'array' ? 'an' : 'a'} ${p.kind}, not a buffer`)
  return p.dtype ?? dtype
}

function cParam(p: ParamSpec, dtype: Dtype, constArrays: boolean, aliases = false): string {
  if (p.kind === 'scalar') return `${p.ctype} ${p.name}`
  if (p.kind === 'array') return `${constArrays ? 'const ' : ''}${p.ctype}* ${p.name}`
  const type = (aliases ? p.elementAlias : undefined) ?? DTYPE_CTYPE[paramDtype(p, dtype)]
  return p.kind === 'input' ? `const ${type}* ${p.name}` : `${type}* ${p.name}`
}

/** e.g. `void solution(const float* input_a, const float* input_b, float* output, size_t n)` */
export function cPrototype(signature: readonly ParamSpec[], dtype: Dtype, entry = 'solution'): string {
  return `void ${entry}(${signature.map((p) => cParam(p, dtype, true)).join(', ')})`
}

/**
 * The prototype of a problem's decode function (DecodeSpec): the problem's parameters with every output read-only,
 * then the decoded buffer, e.g. `void decode(const float* a, const uint8_t* q, const uint8_t* scale, size_t m, size_t
 * k, float* dequantized)`.
 */
export function cDecodePrototype(signature: readonly ParamSpec[], dtype: Dtype, entry: string, decoded: { name: string; dtype: Dtype }): string {
  const params = signature.map((p) => cParam(p.kind === 'output' ? { ...p, kind: 'input' } : p, dtype, true))
  return `void ${entry}(${[...params, `${DTYPE_CTYPE[decoded.dtype]}* ${decoded.name}`].join(', ')})`
}

/** koffi parameter types of a decode function: the problem's, then the decoded buffer's pointer. */
export function koffiDecodeParams(signature: readonly ParamSpec[]): string[] {
  return [...koffiParams(signature), 'void *']
}

/**
 * Other spellings a solution may declare instead of cPrototype's, with the same ABI: an array without `const`, as
 * Tensara's generated starter code writes `size_t* shape`; buffers of their element alias (`__nv_fp8_e4m3* scale`).
 */
export function cPrototypeAlternatives(signature: readonly ParamSpec[], dtype: Dtype, entry = 'solution'): string[] {
  const spelling = (constArrays: boolean, aliases: boolean) => `void ${entry}(${signature.map((p) => cParam(p, dtype, constArrays, aliases)).join(', ')})`
  return [
    ...(signature.some((p) => p.kind === 'array') ? [spelling(false, false)] : []),
    ...(signature.some((p) => isBuffer(p) && p.elementAlias !== undefined) ? [spelling(true, true)] : []),
  ]
}

/** koffi parameter types: pointers are passed as `void *` (koffi BigInt addresses), scalars as themselves. */
export function koffiParams(signature: readonly ParamSpec[]): string[] {
  return signature.map((p) => (p.kind === 'scalar' ? p.ctype : 'void *'))
}
