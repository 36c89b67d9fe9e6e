// What Tensara's image problems (grayscale, box-blur, edge-detect) share: float32 only, pixels drawn uniformly from
// [0, 255] (Tensara's torch.rand · 255), cases named after the image's size as Tensara names them ('1920x1080', with
// more after a comma), random shapes of height × width up to a bound, and a CUDA reference named after the slug.
import { defineProblem, type Problem, type ShapeSpace, type TestCase, type Tolerance } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'
import { float32FamilyFields, type Float32FamilySpec } from '../float32-family.js'

/** A Tensara image size, height × width. */
export type ImageSize = readonly [height: number, width: number]

/** One case per size, named `${height}x${width}` (followed by `, ${suffix}` where the case has more parameters). */
export function imageCases(sizes: readonly ImageSize[], more: Record<string, number> = {}, suffix?: string): TestCase[] {
  return sizes.map(([height, width]) => ({
    name: suffix === undefined ? `${height}x${width}` : `${height}x${width}, ${suffix}`,
    params: { height, width, ...more },
  }))
}

/** What sets an image problem apart; the dtype, the input range and the reference's path are the family's. */
export interface ImageSpec extends Float32FamilySpec {
  readonly tolerance: Tolerance
  /** kernelProperty() draws height and width from [minExtent, maxExtent] (and any further ranges given). */
  readonly minExtent: number
  readonly maxExtent: number
  readonly ranges?: ShapeSpace['ranges']
  readonly valid?: ShapeSpace['valid']
}

/** A Tensara image problem: float32, pixels in [0, 255], its reference in cuda/references/<name>.cu. */
export function defineImageProblem(spec: ImageSpec): Problem<'float32'> {
  return defineProblem({
    ...float32FamilyFields(spec),
    tolerance: { float32: spec.tolerance },
    reference: cudaReference(spec.name),
    inputRange: [0, 255],
    shapes: {
      ranges: { height: [spec.minExtent, spec.maxExtent], width: [spec.minExtent, spec.maxExtent], ...spec.ranges },
      valid: spec.valid,
    },
  })
}
