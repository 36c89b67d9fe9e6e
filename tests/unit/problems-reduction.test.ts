// The reduction family: softmax, layer-norm, rms-norm, sum-dim, mean-dim, max-dim, min-dim, product-dim, argmax,
// argmin, and the scans cumsum and cumprod. Signatures, Tensara's cases, element, FLOP and byte counts worked out by
// hand, tolerances, references, and the shared over-dim helpers.
import { describe, expect, it } from 'vitest'
import { argmax } from '../../problems/argmax/index.js'
import { argmin } from '../../problems/argmin/index.js'
import { cumprod } from '../../problems/cumprod/index.js'
import { cumsum } from '../../problems/cumsum/index.js'
import { layerNorm } from '../../problems/layer-norm/index.js'
import { maxDim } from '../../problems/max-dim/index.js'
import { meanDim } from '../../problems/mean-dim/index.js'
import { minDim } from '../../problems/min-dim/index.js'
import { productDim } from '../../problems/product-dim/index.js'
import { overDimCases, sliceLayout, OVER_DIM_SHAPES } from '../../problems/reduction-common/over-dim.js'
import { rmsNorm } from '../../problems/rms-norm/index.js'
import { softmax } from '../../problems/softmax/index.js'
import { sumDim } from '../../problems/sum-dim/index.js'
import { toleranceFor, type Problem, type TestCase } from '../../src/spec/problem.js'
import { cPrototype, cPrototypeAlternatives, type ArrayParam } from '../../src/spec/signature.js'
import { caseNamed, describeFloat32Family, expectCases, expectCounts } from '../helpers/problem-tests.js'

const REDUCTION_CASE_NAMES = [
  '16x128x256, dim=1',
  '32x512x512, dim=0',
  '8x1024x1024, dim=2',
  '64x128x128x128, dim=2',
  '4x256x256x256, dim=1',
  '128x64x64x64, dim=3',
]

describeFloat32Family(
  [
    { problem: softmax, reference: 'softmax.cu' },
    { problem: layerNorm, reference: 'layer-norm.cu' },
    { problem: rmsNorm, reference: 'rms-norm.cu' },
    { problem: sumDim, reference: 'sum-dim.cu' },
    { problem: maxDim, reference: 'max-dim.cu' },
    { problem: argmax, reference: 'argmax.cu' },
    { problem: meanDim, reference: 'mean-dim.cu' },
    { problem: minDim, reference: 'min-dim.cu' },
    { problem: productDim, reference: 'product-dim.cu' },
    { problem: argmin, reference: 'argmin.cu' },
  ],
  (problem) => {
    it('gives every buffer of every default case a positive element count', () => {
      for (const c of problem.cases('float32')) {
        const elements = problem.elements(c)
        for (const p of problem.signature) {
          if (p.kind === 'input' || p.kind === 'output') expect(elements[p.name], `${c.name}: ${p.name}`).toBeGreaterThan(0)
        }
      }
    })
  },
)

const shapeParam = (problem: Problem): ArrayParam => {
  const shape = problem.signature.find((p) => p.kind === 'array')
  if (!shape) throw new Error(`${problem.name} has no array parameter`)
  return shape
}

describe.each([
  { problem: softmax, ctype: 'size_t', memory: 'device' },
  { problem: sumDim, ctype: 'size_t', memory: 'device' },
  { problem: maxDim, ctype: 'size_t', memory: 'device' },
  { problem: argmax, ctype: 'int', memory: 'host' },
  { problem: meanDim, ctype: 'size_t', memory: 'device' },
  { problem: minDim, ctype: 'size_t', memory: 'host' },
  { problem: productDim, ctype: 'size_t', memory: 'device' },
  { problem: argmin, ctype: 'int', memory: 'host' },
])("$problem.name's shape array", ({ problem, ctype, memory }) => {
  it(`holds ${ctype} in ${memory} memory, where Tensara's def.py puts it`, () => {
    const shape = shapeParam(problem)
    expect([shape.name, shape.ctype, shape.memory]).toEqual(['shape', ctype, memory])
  })

  it("holds the case's first ndim extents, in order", () => {
    const { values } = shapeParam(problem)
    expect(values({ dim: 1, ndim: 3, shape0: 16, shape1: 128, shape2: 256, shape3: 1 })).toEqual([16, 128, 256])
    expect(values({ dim: 2, ndim: 4, shape0: 64, shape1: 128, shape2: 100, shape3: 7 })).toEqual([64, 128, 100, 7])
    for (const c of problem.cases('float32')) expect(values(c.params), c.name).toEqual(c.name.split(',')[0]!.split('x').map(Number))
  })

  it("also accepts the prototype Tensara's starter code generates, with a shape that is not const", () => {
    const [alternative] = cPrototypeAlternatives(problem.signature, 'float32')
    expect(alternative).toBe(cPrototype(problem.signature, 'float32').replace(`const ${ctype}* shape`, `${ctype}* shape`))
    expect(alternative).toContain(`, ${ctype}* shape, `)
  })
})

describe('softmax', () => {
  it("has Tensara's signature, with the shape array after the output", () => {
    expect(cPrototype(softmax.signature, 'float32')).toBe(
      'void solution(const float* input, int dim, float* output, const size_t* shape, size_t ndim)',
    )
  })

  it("has Tensara's seven shapes and dims, padding the shape with 1 past ndim", () => {
    expectCases(softmax, [
      '16x128x256, dim=1',
      '32x512x512, dim=2',
      '8x1024x1024, dim=1',
      '64x128x128x128, dim=2',
      '4x256x256x256, dim=3',
      '128x10, dim=1',
      '256x50x50, dim=0',
    ])
    expect(caseNamed(softmax, '128x10, dim=1').params).toEqual({ dim: 1, ndim: 2, shape0: 128, shape1: 10, shape2: 1, shape3: 1 })
    expect(caseNamed(softmax, '64x128x128x128, dim=2').params).toEqual({ dim: 2, ndim: 4, shape0: 64, shape1: 128, shape2: 128, shape3: 128 })
  })

  it('counts 5S - 2 FLOPs per slice of S and moves the tensor in and out once', () => {
    // 4096 slices of 128: 4096 × 638.
    expectCounts(softmax, '16x128x256, dim=1', { elements: { input: 524_288, output: 524_288 }, flops: 2_613_248, bytes: { float32: 4_194_304 } })
    // 128 slices of 10: 128 × 48.
    expect(softmax.flops(caseNamed(softmax, '128x10, dim=1'))).toBe(6_144)
    // Over dim 0 of 256×50×50: 2500 slices of 256, 2500 × 1278.
    expect(softmax.flops(caseNamed(softmax, '256x50x50, dim=0'))).toBe(3_195_000)
    expect(softmax.flops(caseNamed(softmax, '4x256x256x256, dim=3'))).toBe(335_020_032)
  })

  it("has Tensara's tolerance and inputs in [-3, 3]", () => {
    expect(toleranceFor(softmax, 'float32')).toEqual({ rtol: 2e-3, atol: 1e-4 })
    expect(softmax.inputRange).toEqual([-3, 3])
  })
})

describe.each([
  { problem: sumDim, output: 'float* output', extent: 'size_t', range: [-1, 1] },
  { problem: maxDim, output: 'float* output', extent: 'size_t', range: [-5, 5] },
  { problem: argmax, output: 'int* output', extent: 'int', range: [-5, 5] },
  { problem: minDim, output: 'float* output', extent: 'size_t', range: [-5, 5] },
  { problem: productDim, output: 'float* output', extent: 'size_t', range: [-2, 2] },
  { problem: argmin, output: 'int* output', extent: 'int', range: [-5, 5] },
  { problem: meanDim, output: 'float* output', extent: 'size_t', range: [-1, 1] },
])('$problem.name (a reduction over one dimension)', ({ problem, output, extent, range }) => {
  it("has Tensara's signature, with the shape array after the output", () => {
    expect(cPrototype(problem.signature, 'float32')).toBe(
      `void solution(const float* input, int dim, ${output}, const ${extent}* shape, ${extent} ndim)`,
    )
  })

  it("has Tensara's six shapes and dims", () => {
    expect(problem.cases('float32').map((c) => c.name)).toEqual(REDUCTION_CASE_NAMES)
    expect(caseNamed(problem, '32x512x512, dim=0').params).toEqual({ dim: 0, ndim: 3, shape0: 32, shape1: 512, shape2: 512, shape3: 1 })
  })

  it('writes one element per slice, four bytes per element in and out (float or int32)', () => {
    // 16×128×256 over dim 1: 4096 slices of 128.
    expectCounts(problem, '16x128x256, dim=1', { elements: { input: 524_288, output: 4_096 }, bytes: { float32: 2_113_536 } })
    // 128×64×64×64 over the last dim: 524288 slices of 64.
    expectCounts(problem, '128x64x64x64, dim=3', { elements: { input: 33_554_432, output: 524_288 } })
  })

  it(`draws inputs from [${range.join(', ')}] as Tensara does`, () => {
    expect(problem.inputRange).toEqual(range)
  })
})

describe.each([sumDim, maxDim, argmax, minDim, productDim, argmin])('$name FLOPs', (problem) => {
  it('counts S - 1 operations per slice of S', () => {
    // 4096 slices of 128, 524288 slices of 64, 262144 slices of 32.
    expect(problem.flops(caseNamed(problem, '16x128x256, dim=1'))).toBe(520_192)
    expect(problem.flops(caseNamed(problem, '128x64x64x64, dim=3'))).toBe(33_030_144)
    expect(problem.flops(caseNamed(problem, '32x512x512, dim=0'))).toBe(8_126_464)
  })
})

describe('mean-dim FLOPs', () => {
  it("counts Tensara's S per slice of S (S - 1 additions and a division)", () => {
    // 4096 × 128, 524288 × 64, 262144 × 32: the input's element count.
    expect(meanDim.flops(caseNamed(meanDim, '16x128x256, dim=1'))).toBe(524_288)
    expect(meanDim.flops(caseNamed(meanDim, '128x64x64x64, dim=3'))).toBe(33_554_432)
    expect(meanDim.flops(caseNamed(meanDim, '32x512x512, dim=0'))).toBe(8_388_608)
  })
})

describe('reduction tolerances', () => {
  it("are Tensara's: rtol 2e-4, atol 9e-4 for sum, 1e-3 for max and min, exact for argmax and argmin indices", () => {
    expect(toleranceFor(sumDim, 'float32')).toEqual({ rtol: 2e-4, atol: 9e-4 })
    expect(toleranceFor(maxDim, 'float32')).toEqual({ rtol: 1e-3, atol: 1e-3 })
    expect(toleranceFor(minDim, 'float32')).toEqual({ rtol: 1e-3, atol: 1e-3 })
    expect(toleranceFor(argmax, 'float32')).toEqual({ rtol: 0, atol: 0 })
    expect(toleranceFor(argmin, 'float32')).toEqual({ rtol: 0, atol: 0 })
  })

  it("are Tensara's for mean (rtol 2e-4, atol 7e-6) and product (rtol 2e-2, atol 7e-3)", () => {
    expect(toleranceFor(meanDim, 'float32')).toEqual({ rtol: 2e-4, atol: 7e-6 })
    expect(toleranceFor(productDim, 'float32')).toEqual({ rtol: 2e-2, atol: 7e-3 })
  })

  it('gives argmax and argmin an int32 output whatever the bench dtype', () => {
    for (const problem of [argmax, argmin]) {
      expect(problem.signature.find((p) => p.name === 'output')).toEqual({ name: 'output', kind: 'output', dtype: 'int32' })
    }
  })
})

describe('rms-norm', () => {
  it("has Tensara's signature (X, Y, B, N)", () => {
    expect(cPrototype(rmsNorm.signature, 'float32')).toBe('void solution(const float* X, float* Y, size_t B, size_t N)')
  })

  it("has Tensara's four shapes", () => {
    expectCases(
      rmsNorm,
      ['1024x1024', '1024x4096', '2048x8192', '512x16384'],
      [
        { B: 1024, N: 1024 },
        { B: 1024, N: 4096 },
        { B: 2048, N: 8192 },
        { B: 512, N: 16384 },
      ],
    )
  })

  it("counts Tensara's 3N + 6 FLOPs per row and 8 bytes per element", () => {
    expectCounts(rmsNorm, '1024x1024', { elements: { X: 1_048_576, Y: 1_048_576 }, flops: 3_151_872, bytes: { float32: 8_388_608 } })
    expectCounts(rmsNorm, '512x16384', { flops: 25_168_896, bytes: { float32: 67_108_864 } })
  })

  it("has Tensara's float32 tolerance rtol 2e-4, atol 1e-4", () => {
    expect(toleranceFor(rmsNorm, 'float32')).toEqual({ rtol: 2e-4, atol: 1e-4 })
    expect(rmsNorm.inputRange).toEqual([-1, 1])
  })
})

describe('layer-norm', () => {
  it("has Tensara's signature (X, gamma, beta, Y, B, F, D1, D2)", () => {
    expect(cPrototype(layerNorm.signature, 'float32')).toBe(
      'void solution(const float* X, const float* gamma, const float* beta, float* Y, size_t B, size_t F, size_t D1, size_t D2)',
    )
  })

  it("has Tensara's four shapes", () => {
    expectCases(layerNorm, ['16x64x32x32', '32x128x64x64', '8x256x128x128', '4x512x32x32'])
    expect(layerNorm.cases('float32')[2]!.params).toEqual({ B: 8, F: 256, D1: 128, D2: 128 })
  })

  it("counts Tensara's 14 FLOPs per element and reads gamma and beta once", () => {
    expectCounts(layerNorm, '16x64x32x32', {
      elements: { X: 1_048_576, gamma: 65_536, beta: 65_536, Y: 1_048_576 },
      flops: 14_680_064,
      bytes: { float32: 8_912_896 },
    })
    expectCounts(layerNorm, '8x256x128x128', { flops: 469_762_048, bytes: { float32: 301_989_888 } })
  })

  it("has Tensara's float32 tolerance rtol 2e-4, atol 1e-4", () => {
    expect(toleranceFor(layerNorm, 'float32')).toEqual({ rtol: 2e-4, atol: 1e-4 })
  })
})

describe('random shapes', () => {
  it('draws 3-D shapes for the over-dim problems, whose first case is 3-D', () => {
    for (const problem of [softmax, sumDim, maxDim, argmax, meanDim, minDim, productDim, argmin]) {
      expect(problem.shapes).toBe(OVER_DIM_SHAPES)
      expect(problem.cases('float32')[0]!.params).toMatchObject({ ndim: 3, shape3: 1 })
    }
    expect(OVER_DIM_SHAPES.ranges).toEqual({ shape0: [1, 64], shape1: [1, 300], shape2: [1, 300], dim: [0, 2] })
    expect(OVER_DIM_SHAPES.valid?.({ dim: 2, ndim: 3 })).toBe(true)
    expect(OVER_DIM_SHAPES.valid?.({ dim: 3, ndim: 3 })).toBe(false)
  })

  it('keeps one verification of the norms small', () => {
    expect(rmsNorm.shapes?.ranges).toEqual({ B: [1, 2048], N: [1, 2048] })
    expect(layerNorm.shapes?.ranges).toEqual({ B: [1, 16], F: [1, 64], D1: [1, 64], D2: [1, 64] })
  })
})

describe('over-dim helpers', () => {
  it('sees the input as [outer][size][inner] around the reduced dimension', () => {
    const [first, middle, last] = overDimCases([
      { shape: [2, 3, 5, 7], dim: 0 },
      { shape: [2, 3, 5, 7], dim: 2 },
      { shape: [2, 3, 5, 7], dim: 3 },
    ])
    expect(sliceLayout(first!)).toEqual({ outer: 1, size: 2, inner: 105 })
    expect(sliceLayout(middle!)).toEqual({ outer: 6, size: 5, inner: 7 })
    expect(sliceLayout(last!)).toEqual({ outer: 30, size: 7, inner: 1 })
  })

  it('ignores shape entries past ndim', () => {
    const c: TestCase = { name: 'x', params: { dim: 0, ndim: 2, shape0: 4, shape1: 6, shape2: 99, shape3: 99 } }
    expect(sliceLayout(c)).toEqual({ outer: 1, size: 4, inner: 6 })
  })

  it('rejects a dim outside the shape and more than four dimensions, naming the case', () => {
    expect(() => overDimCases([{ shape: [4, 4], dim: 2 }])).toThrow("case '4x4, dim=2': dim out of range")
    expect(() => overDimCases([{ shape: [4, 4], dim: -1 }])).toThrow("case '4x4, dim=-1': dim out of range")
    expect(() => overDimCases([{ shape: [1, 2, 3, 4, 5], dim: 0 }])).toThrow("case '1x2x3x4x5, dim=0': 1 to 4 dimensions")
  })
})

describeFloat32Family([
  { problem: cumsum, reference: 'cumsum.cu' },
  { problem: cumprod, reference: 'cumprod.cu' },
])

describe.each([
  { problem: cumsum, float32: { rtol: 3e-2, atol: 1e-2 }, range: [-1, 1] },
  { problem: cumprod, float32: { rtol: 1e-2, atol: 2e-2 }, range: [0.9, 1.1] },
])('$problem.name (a scan)', ({ problem, float32, range }) => {
  it("has Tensara's signature (input, output, N)", () => {
    expect(cPrototype(problem.signature, 'float32')).toBe('void solution(const float* input, float* output, size_t N)')
  })

  it("has Tensara's five sizes, named as Tensara names them", () => {
    expectCases(
      problem,
      ['N=65536', 'N=131072', 'N=262144', 'N=524288', 'N=1048576'],
      [{ N: 65_536 }, { N: 131_072 }, { N: 262_144 }, { N: 524_288 }, { N: 1_048_576 }],
    )
  })

  it("counts Tensara's N - 1 operations and 8 bytes per element", () => {
    expectCounts(problem, 'N=65536', { elements: { input: 65_536, output: 65_536 }, flops: 65_535, bytes: { float32: 524_288 } })
    expectCounts(problem, 'N=1048576', { flops: 1_048_575, bytes: { float32: 8_388_608 } })
  })

  it("has Tensara's tolerance and input range", () => {
    expect(toleranceFor(problem, 'float32')).toEqual(float32)
    expect(problem.inputRange).toEqual(range)
  })

  it('draws random sizes up to the largest case', () => {
    expect(problem.shapes?.ranges).toEqual({ N: [1, 1_048_576] })
  })
})
