// A problem's function signature, and the two things derived from it: the C prototype the solution must have
// (checked by the compiler) and the koffi parameter types used to call it. Nothing is written per problem.
import { DTYPE_CTYPE, type Dtype } from './dtype.js'

export type ScalarCType = 'size_t' | 'int' | 'float' | 'double'

export type ParamSpec =
  | { readonly name: string; readonly kind: 'input' | 'output'; readonly dtype?: Dtype }
  | { readonly name: string; readonly kind: 'scalar'; readonly ctype: ScalarCType }

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

/** The element type of a pointer parameter: its own, or the bench's dtype. */
export function paramDtype(p: ParamSpec, dtype: Dtype): Dtype {
  if (p.kind === 'scalar') throw new Error(`parameter '${p.name}' is a scalar`)
  return p.dtype ?? dtype
}

function cParam(p: ParamSpec, dtype: Dtype): string {
  if (p.kind === 'scalar') return `${p.ctype} ${p.name}`
  const type = DTYPE_CTYPE[paramDtype(p, dtype)]
  return p.kind === 'input' ? `const ${type}* ${p.name}` : `${type}* ${p.name}`
}

/** e.g. `void solution(const float* input_a, const float* input_b, float* output, size_t n)` */
export function cPrototype(signature: readonly ParamSpec[], dtype: Dtype, entry = 'solution'): string {
  return `void ${entry}(${signature.map((p) => cParam(p, dtype)).join(', ')})`
}

/** koffi parameter types: device pointers are passed as `void *` (koffi BigInt addresses), scalars as themselves. */
export function koffiParams(signature: readonly ParamSpec[]): string[] {
  return signature.map((p) => (p.kind === 'scalar' ? p.ctype : 'void *'))
}
