// What Tensara's finite-field problems (vector-multiply-ff, poly-multiply-ff, ecc-point-negation; tag "crypto")
// share: field elements drawn uniformly from [0, p) as Tensara's torch.randint(0, p) draws them, outputs compared
// exactly (Tensara's torch.equal), and a CUDA reference named after the slug. The two products are uint32 over the
// Mersenne prime 2^31 - 1, with the signature (d_input1, d_input2, d_output, n) and cases named 'n = 2^k';
// ecc-point-negation is uint64 over 2^61 - 1 (its own definition).
//
// A "FLOP" here is an integer field operation, counted as Tensara counts them (a modular multiplication or a modular
// addition each count one, or two where Tensara counts the reduction apart): these problems do no floating point.
import { defineProblem, type Problem, type TestCase } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'

/** The Mersenne prime 2^31 - 1, the modulus of the uint32 problems. */
export const MERSENNE_31 = 2 ** 31 - 1

/** The Mersenne prime 2^61 - 1, ecc-point-negation's modulus: a bigint, as a number cannot hold it exactly. */
export const MERSENNE_61 = 2n ** 61n - 1n

/** One case per exponent k, named 'n = 2^k' as Tensara names them. */
export function powerOfTwoCases(exponents: readonly number[]): TestCase[] {
  return exponents.map((k) => ({ name: `n = 2^${k}`, params: { n: 2 ** k } }))
}

/** What sets a problem over F_(2^31 - 1) apart; the rest is the family's. */
export interface Mersenne31Spec {
  readonly name: string
  readonly description: string
  readonly exponents: readonly number[]
  /** d_output's element count for a length n. */
  readonly outputElements: (n: number) => number
  readonly flops: (n: number) => number
}

/**
 * A Tensara problem `(const uint32_t* d_input1, const uint32_t* d_input2, uint32_t* d_output, size_t n)` over
 * F_(2^31 - 1): inputs in [0, p), outputs exact, its reference in cuda/references/<name>.cu.
 */
export function defineMersenne31Problem(spec: Mersenne31Spec): Problem<'uint32'> {
  return defineProblem({
    name: spec.name,
    description: spec.description,
    signature: [
      { name: 'd_input1', kind: 'input' },
      { name: 'd_input2', kind: 'input' },
      { name: 'd_output', kind: 'output' },
      { name: 'n', kind: 'scalar', ctype: 'size_t' },
    ],
    dtypes: ['uint32'],
    cases: () => powerOfTwoCases(spec.exponents),
    elements: ({ params: { n } }) => ({ d_input1: n!, d_input2: n!, d_output: spec.outputElements(n!) }),
    flops: ({ params: { n } }) => spec.flops(n!),
    // Field elements are exact: Tensara compares with torch.equal.
    tolerance: { uint32: { rtol: 0, atol: 0 } },
    reference: cudaReference(spec.name),
    // Integer inputs are floor(lo + (hi - lo)·u), u in [0, 1): the integers 0 … p - 1, as torch.randint(0, p).
    inputRange: [0, MERSENNE_31],
  })
}
