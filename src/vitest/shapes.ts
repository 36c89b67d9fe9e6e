// Where kernelProperty() draws its test cases from: the problem's shape space (or the default one derived from
// its signature) turned into a fast-check arbitrary that favours the sizes kernels get wrong and shrinks toward
// small shapes. Pure: no GPU, no Vitest.
import fc from 'fast-check'
import type { Dtype } from '../spec/dtype.js'
import type { Problem, ShapeSpace, TestCase } from '../spec/problem.js'
import { isCaseScalar, type ParamSpec } from '../spec/signature.js'

export type ShapeParams = Readonly<Record<string, number>>

/** The range of every integer scalar of the signature when a problem has no `shapes`. */
export const DEFAULT_SIZE_RANGE: readonly [number, number] = [1, 1024]

/** A shape space checked against its problem, with the values of the parameters that are not drawn. */
export interface ResolvedShapeSpace {
  /** The drawn parameters and their inclusive ranges, in the order case names list them. */
  readonly ranges: ReadonlyArray<{ readonly name: string; readonly min: number; readonly max: number }>
  /** Every other case parameter, valued as in the problem's first default case. */
  readonly fixed: ShapeParams
  readonly valid?: (params: ShapeParams) => boolean
}

/** Out of every four sizes drawn, three come from the edge sizes and one from the whole range. */
const EDGE_WEIGHT = 3

/** A valid() that rejects this many drawn shapes in a row accepts (almost) none: fail instead of looping. */
const MAX_REJECTIONS_IN_A_ROW = 10_000

/** Every integer scalar (size_t or int) of a signature, drawn from DEFAULT_SIZE_RANGE. */
export function defaultShapeSpace(signature: readonly ParamSpec[]): ShapeSpace {
  const ranges: Record<string, readonly [number, number]> = {}
  for (const p of signature) {
    if (isCaseScalar(p) && (p.ctype === 'size_t' || p.ctype === 'int')) ranges[p.name] = DEFAULT_SIZE_RANGE
  }
  return { ranges }
}

/** The spec's shapes, else the problem's, else the default; every range checked and named in the error. */
export function resolveShapeSpace(problem: Problem, dtype: Dtype, shapes = problem.shapes): ResolvedShapeSpace {
  const space = shapes ?? defaultShapeSpace(problem.signature)
  const where = `shapes of problem '${problem.name}'`
  const defaults = problem.cases(dtype)[0]?.params ?? {}
  const known = new Set([...problem.signature.filter(isCaseScalar).map((p) => p.name), ...Object.keys(defaults)])
  const ranges = Object.entries(space.ranges).map(([name, [min, max]]) => {
    if (!known.has(name)) throw new Error(`${where}: '${name}' is neither a scalar parameter nor a case parameter of the problem`)
    if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min > max) {
      throw new Error(`${where}: the range of '${name}' must be two integers [min, max] with min <= max (got [${min}, ${max}])`)
    }
    return { name, min, max }
  })
  if (ranges.length === 0) {
    throw new Error(`${where}: nothing to draw (no integer scalar parameter); give the problem or the property \`shapes\``)
  }
  const fixed = Object.fromEntries(Object.entries(defaults).filter(([name]) => !Object.hasOwn(space.ranges, name)))
  return { ranges, fixed, valid: space.valid }
}

/**
 * The sizes kernels most often get wrong, within [min, max]: 1, 2, 3, the range's ends, and every power of two
 * and every three times a power of two (a multiple of a small tile that is not a multiple of the next larger
 * one), each with its neighbours: odd sizes and sizes that are no multiple of 16, 32, 64 or 128. Ascending.
 */
export function edgeSizes(min: number, max: number): number[] {
  const sizes = new Set([1, 2, 3, min, max])
  for (let power = 2; power <= max + 1; power *= 2) {
    for (const size of [power, 3 * power]) {
      sizes.add(size - 1).add(size).add(size + 1)
    }
  }
  return [...sizes].filter((size) => size >= min && size <= max).sort((a, b) => a - b)
}

/**
 * An integer in [min, max], three times in four one of the edge sizes. Every value, edge size or not, shrinks as
 * a plain integer toward min, so a failure shrinks to the smallest failing size and not just to the smallest
 * failing edge size.
 */
class EdgeBiasedSize extends fc.Arbitrary<number> {
  private readonly uniform: fc.Arbitrary<number>
  private readonly drawn: fc.Arbitrary<number>

  constructor(min: number, max: number) {
    super()
    this.uniform = fc.integer({ min, max })
    this.drawn = fc.oneof({ arbitrary: fc.constantFrom(...edgeSizes(min, max)), weight: EDGE_WEIGHT }, { arbitrary: this.uniform, weight: 1 })
  }

  generate(random: fc.Random, biasFactor: number | undefined): fc.Value<number> {
    // Without the drawing context the value shrinks like one fc.integer generated.
    return new fc.Value(this.drawn.generate(random, biasFactor).value, undefined)
  }

  canShrinkWithoutContext(value: unknown): value is number {
    return this.uniform.canShrinkWithoutContext(value)
  }

  shrink(value: number, context: unknown): fc.Stream<fc.Value<number>> {
    return this.uniform.shrink(value, context)
  }
}

/** e.g. 'm=17 n=1 k=33': the drawn parameters, then the fixed ones. */
export function caseName(space: ResolvedShapeSpace, drawn: ShapeParams): string {
  const values = [...space.ranges.map(({ name }) => [name, drawn[name]] as const), ...Object.entries(space.fixed)]
  return values.map(([name, value]) => `${name}=${value}`).join(' ')
}

/** Test cases drawn from the space (only those valid() accepts), shrinking toward smaller parameters. */
export function shapeArbitrary(space: ResolvedShapeSpace): fc.Arbitrary<TestCase> {
  const drawn = fc.record(Object.fromEntries(space.ranges.map(({ name, min, max }) => [name, new EdgeBiasedSize(min, max)])))
  const valid = space.valid
  let rejectedInARow = 0
  const accepted = valid
    ? drawn.filter((params) => {
        if (valid({ ...space.fixed, ...params })) {
          rejectedInARow = 0
          return true
        }
        if (++rejectedInARow >= MAX_REJECTIONS_IN_A_ROW) {
          throw new Error(`shapes.valid() rejected ${MAX_REJECTIONS_IN_A_ROW} drawn shapes in a row: does it accept any shape within the ranges?`)
        }
        return false
      })
    : drawn
  return accepted.map((params) => ({ name: caseName(space, params), params: { ...space.fixed, ...params } }))
}
