// What Tensara's normalisations of a row-major B×F×D1×D2 tensor (layer-norm, batch-norm) share: the four size_t sizes
// after the pointers, in that order, the tensor's element count, and random shapes small enough to verify quickly.
import type { ShapeSpace, TestCase } from '../../src/spec/problem.js'
import type { ParamSpec } from '../../src/spec/signature.js'

export type FeatureMapShape = readonly [B: number, F: number, D1: number, D2: number]

export const FEATURE_MAP_SIZES: readonly ParamSpec[] = ['B', 'F', 'D1', 'D2'].map((name) => ({ name, kind: 'scalar', ctype: 'size_t' }) as const)

/** B·F·D1·D2 of a case. */
export const featureMapCount = ({ params: { B, F, D1, D2 } }: TestCase) => B! * F! * D1! * D2!

/** Random shapes up to 16×64×64×64. */
export const FEATURE_MAP_SHAPES: ShapeSpace = { ranges: { B: [1, 16], F: [1, 64], D1: [1, 64], D2: [1, 64] } }
