// What Tensara's graph problems (shortest-path, all-pairs-shortest-path, min-spanning-tree) share: float32 only, an
// n×n row-major adjacency matrix (0: no edge), cases named 'n = 512' as Tensara names them, Tensara's tolerance for
// all three, random graphs of up to 1024 vertices and a CUDA reference named after the slug. Tensara's graphs are
// sparse with whole-number weights; the catalogue draws every element from one uniform range, never zero, so here
// every graph is complete, with real weights drawn from the range of Tensara's random edges.
import { defineProblem, type Problem, type ShapeSpace, type TestCase } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'
import { float32FamilyFields, type Float32FamilySpec } from '../float32-family.js'

/** One case per vertex count, named `n = ${n}`, with any further parameters the vertex count gives it. */
export function graphCases(sizes: readonly number[], more: (n: number) => Record<string, number> = () => ({})): TestCase[] {
  return sizes.map((n) => ({ name: `n = ${n}`, params: { n, ...more(n) } }))
}

/** What sets a graph problem apart; the dtype, the tolerance and the reference's path are the family's. */
export interface GraphSpec extends Float32FamilySpec {
  /** Edge weights are drawn uniformly from this range. */
  readonly weights: readonly [number, number]
  readonly ranges?: ShapeSpace['ranges']
  readonly valid?: ShapeSpace['valid']
}

/** A Tensara graph problem: float32, Tensara's rtol 1e-4 and atol 1e-3, its reference in cuda/references/<name>.cu. */
export function defineGraphProblem(spec: GraphSpec): Problem<'float32'> {
  return defineProblem({
    ...float32FamilyFields(spec),
    tolerance: { float32: { rtol: 1e-4, atol: 1e-3 } },
    reference: cudaReference(spec.name),
    inputRange: spec.weights,
    shapes: { ranges: { n: [1, 1024], ...spec.ranges }, valid: spec.valid },
  })
}
