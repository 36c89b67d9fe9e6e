// A problem's function signature, and the two things derived from it: the C prototype the solution must have
// (checked by the compiler) and the koffi parameter types used to call it. Nothing is written per problem.
import { DTYPE_CTYPE, type Dtype } from './dtype.js'

export type ScalarCType = 'size_t' | 'int' | 'float' | 'double'

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
   */
  | {
      readonly name: string
      readonly kind: 'input'
      readonly dtype?: Dtype
      readonly structure?: InputStructure
      readonly range?: readonly [number, number]
    }
  /**
   * `initial`: what the output holds when a verified call starts. By default NaN, so an element the solution never
   * writes cannot pass; 'zero' where the problem defines the output as starting at zero, so that a kernel that reads
   * it first (C = α·A·B + β·C reads C even with β = 0, and NaN · 0 is NaN) is served as its BLAS caller would serve it.
   */
  | { readonly name: string; readonly kind: 'output'; readonly dtype?: Dtype; readonly initial?: 'zero' }
  | { readonly name: string; readonly kind: 'scalar'; readonly ctype: ScalarCType }
  | ArrayParam

/** The parameters whose buffers the harness allocates and fills (inputs) or checks (outputs). */
export type BufferParam = Extract<ParamSpec, { kind: 'input' | 'output' }>

export function isBuffer(p: ParamSpec): p is BufferParam {
  return p.kind === 'input' || p.kind === 'output'
}

const IDENTIFIER = /^[A-Za-z_]\w*$/

export function validateSignature(signature: readonly ParamSpec[], where: string): void {
  if (!signature.some((p) => p.kind === 'output')) throw new Error(`${where}: the signature has no output parameter`)
  const seen = new Set<string>()
  for (const p of signature) {
    if (!IDENTIFIER.test(p.name)) throw new Error(`${where}: parameter name '${p.name}' is not a C identifier`)
    if (seen.has(p.name)) throw new Error(`${where}: parameter '${p.name}' appears twice`)
    seen.add(p.name)
  }
}

/** The element type of a buffer parameter: its own, or the bench's dtype. */
export function paramDtype(p: ParamSpec, dtype: Dtype): Dtype {
  if (!isBuffer(p)) throw new Error(`parameter '${p.name}' is ${p.kind === 'array' ? 'an' : 'a'} ${p.kind}, not a buffer`)
  return p.dtype ?? dtype
}

function cParam(p: ParamSpec, dtype: Dtype, constArrays: boolean): string {
  if (p.kind === 'scalar') return `${p.ctype} ${p.name}`
  if (p.kind === 'array') return `${constArrays ? 'const ' : ''}${p.ctype}* ${p.name}`
  const type = DTYPE_CTYPE[paramDtype(p, dtype)]
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
 * Other spellings a solution may declare instead of cPrototype's: an array without `const`, as Tensara's
 * generated starter code writes `size_t* shape`. The ABI is the same.
 */
export function cPrototypeAlternatives(signature: readonly ParamSpec[], dtype: Dtype, entry = 'solution'): string[] {
  if (!signature.some((p) => p.kind === 'array')) return []
  return [`void ${entry}(${signature.map((p) => cParam(p, dtype, false)).join(', ')})`]
}

/** koffi parameter types: pointers are passed as `void *` (koffi BigInt addresses), scalars as themselves. */
export function koffiParams(signature: readonly ParamSpec[]): string[] {
  return signature.map((p) => (p.kind === 'scalar' ? p.ctype : 'void *'))
}
