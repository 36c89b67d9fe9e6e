// What a float32-only family of the catalogue (graphs, images) takes from each problem's spec as it is: the family
// module adds what the family shares (tolerance, input range, reference, random shapes).
import type { ProblemDefinition, TestCase } from '../src/spec/problem.js'

/** What sets one problem of a float32-only family apart. */
export interface Float32FamilySpec extends Pick<ProblemDefinition<'float32'>, 'name' | 'description' | 'signature' | 'elements' | 'flops'> {
  readonly cases: readonly TestCase[]
}

/** The problem's own fields, float32 only. */
export function float32FamilyFields(spec: Float32FamilySpec) {
  return {
    name: spec.name,
    description: spec.description,
    signature: spec.signature,
    dtypes: ['float32'] as const,
    cases: () => spec.cases,
    elements: spec.elements,
    flops: spec.flops,
  }
}
