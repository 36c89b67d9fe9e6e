import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { matrixMultiplication, vectorAddition } from '../../problems/index.js'
import { defineProblem, type ShapeSpace } from '../../src/spec/problem.js'
import {
  caseName,
  DEFAULT_SIZE_RANGE,
  defaultShapeSpace,
  edgeSizes,
  resolveShapeSpace,
  shapeArbitrary,
  type ResolvedShapeSpace,
} from '../../src/vitest/shapes.js'

/** y = alpha · x over n elements, with an int stride: one float scalar that must keep its default value. */
const scale = defineProblem({
  name: 'scale',
  signature: [
    { name: 'x', kind: 'input' },
    { name: 'y', kind: 'output' },
    { name: 'n', kind: 'scalar', ctype: 'size_t' },
    { name: 'stride', kind: 'scalar', ctype: 'int' },
    { name: 'alpha', kind: 'scalar', ctype: 'float' },
  ],
  dtypes: ['float32'],
  cases: () => [
    { name: 'first', params: { n: 4096, stride: 2, alpha: 0.5 } },
    { name: 'second', params: { n: 8192, stride: 1, alpha: 2 } },
  ],
  elements: ({ params }) => ({ x: params.n! * params.stride!, y: params.n! }),
  flops: ({ params }) => params.n!,
  tolerance: { float32: { rtol: 1e-5, atol: 1e-6 } },
  reference: { kind: 'cuda', file: '/nonexistent/scale.cu' },
})

const SAMPLES = 2000
const sample = (space: ResolvedShapeSpace, seed = 42) => fc.sample(shapeArbitrary(space), { numRuns: SAMPLES, seed })
const matmulSpace = () => resolveShapeSpace(matrixMultiplication, 'float32')

describe('default shape space', () => {
  it('draws every integer scalar (size_t and int) of the signature from 1..1024, and no float', () => {
    expect(DEFAULT_SIZE_RANGE).toEqual([1, 1024])
    expect(defaultShapeSpace(matrixMultiplication.signature).ranges).toEqual({ m: [1, 1024], n: [1, 1024], k: [1, 1024] })
    expect(defaultShapeSpace(scale.signature).ranges).toEqual({ n: [1, 1024], stride: [1, 1024] })
  })

  it('keeps every other case parameter at its value in the first default case', () => {
    const space = resolveShapeSpace(scale, 'float32')
    expect(space.ranges).toEqual([
      { name: 'n', min: 1, max: 1024 },
      { name: 'stride', min: 1, max: 1024 },
    ])
    expect(space.fixed).toEqual({ alpha: 0.5 })
    for (const c of sample(space).slice(0, 100)) expect(c.params.alpha).toBe(0.5)
  })

  it("uses the problem's shapes when it has them, and the property's own over both", () => {
    const own: ShapeSpace = { ranges: { n: [5, 9] } }
    const withShapes = defineProblem({ ...scale, shapes: { ranges: { n: [100, 200] } } })
    expect(resolveShapeSpace(withShapes, 'float32').ranges).toEqual([{ name: 'n', min: 100, max: 200 }])
    expect(resolveShapeSpace(withShapes, 'float32').fixed).toEqual({ stride: 2, alpha: 0.5 })
    expect(resolveShapeSpace(withShapes, 'float32', own).ranges).toEqual([{ name: 'n', min: 5, max: 9 }])
  })

  it('rejects a range for an unknown parameter, a reversed or fractional range, and a space with nothing to draw', () => {
    expect(() => resolveShapeSpace(scale, 'float32', { ranges: { nn: [1, 2] } })).toThrow(
      "shapes of problem 'scale': 'nn' is neither a scalar parameter nor a case parameter of the problem",
    )
    expect(() => resolveShapeSpace(scale, 'float32', { ranges: { n: [9, 5] } })).toThrow(/the range of 'n' must be two integers \[min, max\] with min <= max \(got \[9, 5\]\)/)
    expect(() => resolveShapeSpace(scale, 'float32', { ranges: { n: [1, 2.5] } })).toThrow(/the range of 'n'/)
    expect(() => resolveShapeSpace(scale, 'float32', { ranges: {} })).toThrow(/nothing to draw/)
  })
})

describe('drawn shapes', () => {
  it('stay within their ranges and cover both ends', () => {
    const space = resolveShapeSpace(scale, 'float32', { ranges: { n: [100, 300], stride: [1, 4] } })
    const shapes = sample(space)
    for (const { params } of shapes) {
      expect(params.n).toBeGreaterThanOrEqual(100)
      expect(params.n).toBeLessThanOrEqual(300)
      expect([1, 2, 3, 4]).toContain(params.stride)
    }
    const sizes = new Set(shapes.map((c) => c.params.n))
    expect(sizes).toContain(100)
    expect(sizes).toContain(300)
  })

  it('are all accepted by valid(), which sees the fixed parameters too', () => {
    const seen: Array<Readonly<Record<string, number>>> = []
    const space = resolveShapeSpace(scale, 'float32', {
      ranges: { n: [1, 1024], stride: [1, 16] },
      valid: (p) => {
        seen.push(p)
        return p.n! % p.stride! === 0
      },
    })
    const shapes = sample(space)
    for (const { params } of shapes) expect(params.n! % params.stride!).toBe(0)
    expect(new Set(shapes.map((c) => c.params.stride)).size).toBeGreaterThan(8)
    expect(seen[0]?.alpha).toBe(0.5)
  })

  it('fail with a message, instead of looping forever, when valid() accepts nothing', () => {
    const space = resolveShapeSpace(vectorAddition, 'float32', { ranges: { n: [1, 1024] }, valid: () => false })
    expect(() => sample(space)).toThrow(/shapes.valid\(\) rejected 10000 drawn shapes in a row/)
  })

  it('are named by their parameters, drawn first, then fixed', () => {
    expect(caseName(matmulSpace(), { m: 17, n: 1, k: 33 })).toBe('m=17 n=1 k=33')
    expect(caseName(resolveShapeSpace(scale, 'float32'), { n: 7, stride: 3 })).toBe('n=7 stride=3 alpha=0.5')
    for (const c of sample(matmulSpace()).slice(0, 50)) {
      expect(c.name).toBe(`m=${c.params.m} n=${c.params.n} k=${c.params.k}`)
    }
  })

  it('favour edge sizes: most draws are 1, a power of two or three times one, or a neighbour of those', () => {
    const space = resolveShapeSpace(vectorAddition, 'float32')
    const edges = new Set(edgeSizes(1, 1024))
    const sizes = sample(space).map((c) => c.params.n!)
    const edgeShare = sizes.filter((n) => edges.has(n)).length / sizes.length
    // Three in four draws are edge sizes, and a uniform draw is one too about 5% of the time.
    expect(edgeShare).toBeGreaterThan(0.7)
    expect(edgeShare).toBeLessThan(0.85)
    const count = (n: number) => sizes.filter((s) => s === n).length
    for (const n of [1, 255, 256, 257, 1023, 1024]) expect(count(n)).toBeGreaterThan(10)
    // The rest of the range is drawn too.
    expect(new Set(sizes.filter((n) => !edges.has(n))).size).toBeGreaterThan(200)
  })

  it('shrink a failure to the smallest failing shape, not just the smallest failing edge size', () => {
    // Fails for n >= 1001: the smallest edge size that fails is 1023, the smallest failing size 1001.
    const space = resolveShapeSpace(vectorAddition, 'float32')
    for (const seed of [1, 2, 3, 4, 5]) {
      const details = fc.check(fc.property(shapeArbitrary(space), (c) => c.params.n! < 1001), { seed, numRuns: 200 })
      expect(details.counterexample?.[0]).toEqual({ name: 'n=1001', params: { n: 1001 } })
    }
  })

  it('shrink every parameter toward its minimum', () => {
    const details = fc.check(
      fc.property(shapeArbitrary(matmulSpace()), (c) => c.params.m! < 17 || c.params.n! < 33),
      { seed: 7, numRuns: 200 },
    )
    expect(details.failed).toBe(true)
    expect(details.counterexample?.[0]).toEqual({ name: 'm=17 n=33 k=1', params: { m: 17, n: 33, k: 1 } })
  })
})

describe('edgeSizes', () => {
  it('lists 1, 2, 3, the powers of two and three times a power of two with their neighbours, ascending', () => {
    const sizes = edgeSizes(1, 1024)
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b))
    for (const n of [1, 2, 3, 15, 16, 17, 47, 48, 49, 95, 96, 97, 127, 128, 129, 767, 768, 769, 1023, 1024]) expect(sizes).toContain(n)
    for (const n of [10, 100, 1000, 1025, 0]) expect(sizes).not.toContain(n)
  })

  it('keeps to the range and includes its ends', () => {
    expect(edgeSizes(100, 300)).toEqual([100, 127, 128, 129, 191, 192, 193, 255, 256, 257, 300])
  })
})
