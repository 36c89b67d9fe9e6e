// The checks the tests of the problem catalog repeat for every problem: a case by name, the signature as rows, the
// reference file, the default cases and the counts of one case, so each test states only its problem's numbers.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Dtype } from '../../src/spec/dtype.js'
import type { Problem, ShapeSpace, TestCase, Tolerance } from '../../src/spec/problem.js'
import { cPrototype } from '../../src/spec/signature.js'

/** The float32 default case of that name; throws, naming the problem, where there is none. */
export function caseNamed(problem: Problem, name: string): TestCase {
  const found = problem.cases('float32').find((c) => c.name === name)
  if (!found) throw new Error(`${problem.name} has no case '${name}'`)
  return found
}

/** The signature as [name, kind, ctype of a scalar] rows. */
export const signatureOf = (problem: Problem) => problem.signature.map((p) => [p.name, p.kind, p.kind === 'scalar' ? p.ctype : undefined])

/** A CUDA reference at an absolute path that exists, whose file is `basename` where one is given. */
export function expectCudaReference(problem: Problem, basename?: string): void {
  const reference = problem.reference
  expect(reference.kind).toBe('cuda')
  if (reference.kind !== 'cuda') return
  expect(path.isAbsolute(reference.file)).toBe(true)
  if (basename !== undefined) expect(path.basename(reference.file)).toBe(basename)
  expect(fs.existsSync(reference.file)).toBe(true)
}

/** The names of the float32 default cases, in order, and their parameters where given. */
export function expectCases(problem: Problem, names: readonly string[], params?: readonly Record<string, number>[]): void {
  const cases = problem.cases('float32')
  expect(cases.map((c) => c.name)).toEqual(names)
  if (params !== undefined) expect(cases.map((c) => c.params)).toEqual(params)
}

export interface Counts {
  elements?: Record<string, number>
  flops?: number
  bytes?: Partial<Record<Dtype, number>>
}

/** The element, FLOP and byte counts of the float32 default case of that name: those given, each worked by hand. */
export function expectCounts(problem: Problem, name: string, counts: Counts): void {
  const c = caseNamed(problem, name)
  if (counts.elements !== undefined) expect(problem.elements(c)).toEqual(counts.elements)
  if (counts.flops !== undefined) expect(problem.flops(c)).toBe(counts.flops)
  for (const [dtype, bytes] of Object.entries(counts.bytes ?? {})) expect(problem.bytes(c, dtype as Dtype)).toBe(bytes)
}

/**
 * The checks a family of problems with all three float types shares, one suite per problem: the dtypes and the
 * family's 16-bit tolerances (under the family's own title), one default case list for every dtype, and inputs in
 * [-1, 1].
 */
export function describeHalfTypeFamily(
  problems: readonly Problem[],
  family: { title: string; float16: Tolerance; bfloat16: Tolerance },
  more?: (problem: Problem) => void,
): void {
  describe.each(problems)('$name', (problem) => {
    it(family.title, () => {
      expect(problem.dtypes).toEqual(['float32', 'float16', 'bfloat16'])
      expect(problem.tolerance.float16).toEqual(family.float16)
      expect(problem.tolerance.bfloat16).toEqual(family.bfloat16)
    })

    it('has the same default cases for every dtype', () => {
      expect(problem.cases('float16')).toEqual(problem.cases('float32'))
      expect(problem.cases('bfloat16')).toEqual(problem.cases('float32'))
    })

    more?.(problem)

    it('keeps inputs in [-1, 1], as Tensara draws them', () => {
      expect(problem.inputRange).toEqual([-1, 1])
    })
  })
}

/** The checks a family of float32-only problems shares, one suite per problem: a description and its CUDA reference. */
export function describeFloat32Family(rows: readonly { problem: Problem; reference: string }[], more?: (problem: Problem) => void): void {
  describe.each(rows)('$problem.name', ({ problem, reference }) => {
    it('supports float32 only and has a description', () => {
      expect(problem.dtypes).toEqual(['float32'])
      expect(problem.description).not.toBe('')
    })

    it('has a CUDA reference at an absolute path that exists', () => {
      expectCudaReference(problem, reference)
    })

    more?.(problem)
  })
}

/** What one test of a problem checks: only the facts given, each against the problem. */
export interface ProblemFacts {
  /** The signature as signatureOf() rows. */
  signature?: readonly (readonly [string, string, string | undefined])[]
  /** The C prototype for each dtype given. */
  prototypes?: Partial<Record<Dtype, string>>
  /** The names of the float32 default cases, in order. */
  cases?: readonly string[]
  /** Their parameters, in order. */
  params?: readonly Record<string, number>[]
  /** The counts of the named float32 default cases. */
  counts?: Record<string, Counts>
  /** The problem's own float32 tolerance. */
  float32?: Tolerance
  /** The ranges kernelProperty() draws shapes from. */
  ranges?: Record<string, readonly [number, number]>
  /** The whole shape space (so also that it has no validity check). */
  shapes?: ShapeSpace
  /** The test's further checks, particular to it. */
  also?: () => void
}

/** A suite named after the problem, with one test per entry: the entry's title, checking the entry's facts. */
export function describeProblem(problem: Problem, tests: Record<string, ProblemFacts>): void {
  describe(problem.name, () => {
    for (const [title, facts] of Object.entries(tests)) {
      it(title, () => {
        // An entry whose facts were all left out (or misnamed) must not pass as a test.
        expect.hasAssertions()
        expectFacts(problem, facts)
      })
    }
  })
}

function expectFacts(problem: Problem, facts: ProblemFacts): void {
  if (facts.signature !== undefined) expect(signatureOf(problem)).toEqual(facts.signature)
  for (const [dtype, prototype] of Object.entries(facts.prototypes ?? {})) expect(cPrototype(problem.signature, dtype as Dtype)).toBe(prototype)
  if (facts.cases !== undefined) expectCases(problem, facts.cases)
  if (facts.params !== undefined) expect(problem.cases('float32').map((c) => c.params)).toEqual(facts.params)
  for (const [name, counts] of Object.entries(facts.counts ?? {})) expectCounts(problem, name, counts)
  if (facts.float32 !== undefined) expect(problem.tolerance.float32).toEqual(facts.float32)
  if (facts.ranges !== undefined) expect(problem.shapes?.ranges).toEqual(facts.ranges)
  if (facts.shapes !== undefined) expect(problem.shapes).toEqual(facts.shapes)
  facts.also?.()
}
