import { describe, expect, it } from 'vitest'
import { HALF_TOLERANCES, activationProblem, elementwiseProblem, rowsColsCase } from '../../problems/elementwise.js'
import { elu } from '../../problems/elu/index.js'
import { gelu } from '../../problems/gelu/index.js'
import { hardSigmoid } from '../../problems/hard-sigmoid/index.js'
import { leakyRelu } from '../../problems/leaky-relu/index.js'
import { matrixScalar } from '../../problems/matrix-scalar/index.js'
import { relu } from '../../problems/relu/index.js'
import { selu } from '../../problems/selu/index.js'
import { sigmoid } from '../../problems/sigmoid/index.js'
import { softPlus } from '../../problems/soft-plus/index.js'
import { swish } from '../../problems/swish/index.js'
import { tanh } from '../../problems/tanh/index.js'
import { threshold } from '../../problems/threshold/index.js'
import { packagePath } from '../../src/spec/paths.js'
import { describeHalfTypeFamily, describeProblem, expectCudaReference, signatureOf } from '../helpers/problem-tests.js'

describeHalfTypeFamily(
  [relu, leakyRelu, gelu, matrixScalar, sigmoid, tanh, swish, softPlus, elu, selu, hardSigmoid],
  {
    title: 'supports float32, float16 and bfloat16 with the shared half-type tolerances',
    float16: { rtol: 2e-3, atol: 1e-5 },
    bfloat16: { rtol: 1.6e-2, atol: 1e-5 },
  },
  (problem) => {
    it('has a CUDA reference named after the slug, at an absolute path that exists', () => {
      expectCudaReference(problem, `${problem.name}.cu`)
    })
  },
)

// Each test checks the facts its entry gives (see ProblemFacts), under the entry's title.
describeProblem(relu, {
  "has Tensara's signature (input, output, n, m)": {
    signature: [
      ['input', 'input', undefined],
      ['output', 'output', undefined],
      ['n', 'scalar', 'size_t'],
      ['m', 'scalar', 'size_t'],
    ],
    prototypes: {
      float32: 'void solution(const float* input, float* output, size_t n, size_t m)',
      float16: 'void solution(const __half* input, __half* output, size_t n, size_t m)',
    },
  },
  "has Tensara's five shapes, rows in n and columns in m": {
    cases: ['4096x4096', '6144x4096', '4096x7168', '4096x8192', '8192x8192'],
    params: [
      { n: 4096, m: 4096 },
      { n: 6144, m: 4096 },
      { n: 4096, m: 7168 },
      { n: 4096, m: 8192 },
      { n: 8192, m: 8192 },
    ],
  },
  'counts one FLOP per element and moves the matrix in and out once': {
    counts: {
      '6144x4096': {
        elements: { input: 25_165_824, output: 25_165_824 },
        flops: 25_165_824,
        bytes: { float32: 201_326_592, float16: 100_663_296 },
      },
      '8192x8192': { bytes: { float32: 536_870_912 } },
    },
  },
  "has Tensara's float32 tolerance rtol 6e-5, atol 3e-5": { float32: { rtol: 6e-5, atol: 3e-5 } },
  'draws random rows and columns for kernelProperty() up to 2000': { shapes: { ranges: { n: [1, 2000], m: [1, 2000] } } },
})

describeProblem(leakyRelu, {
  "has Tensara's signature (input, alpha, output, n, m), alpha a float for every dtype": {
    signature: [
      ['input', 'input', undefined],
      ['alpha', 'scalar', 'float'],
      ['output', 'output', undefined],
      ['n', 'scalar', 'size_t'],
      ['m', 'scalar', 'size_t'],
    ],
    prototypes: {
      float32: 'void solution(const float* input, float alpha, float* output, size_t n, size_t m)',
      bfloat16: 'void solution(const __nv_bfloat16* input, float alpha, __nv_bfloat16* output, size_t n, size_t m)',
    },
  },
  'has four slopes on each of the two shapes, named as Tensara names them': {
    cases: [
      '4096x4096, alpha=0.01',
      '4096x4096, alpha=0.05',
      '4096x4096, alpha=0.1',
      '4096x4096, alpha=0.2',
      '6144x4096, alpha=0.01',
      '6144x4096, alpha=0.05',
      '6144x4096, alpha=0.1',
      '6144x4096, alpha=0.2',
    ],
    also: () => expect(leakyRelu.cases('float32')[5]!.params).toEqual({ n: 6144, m: 4096, alpha: 0.05 }),
  },
  'counts one FLOP per element': {
    counts: {
      '6144x4096, alpha=0.2': { elements: { input: 25_165_824, output: 25_165_824 }, flops: 25_165_824, bytes: { bfloat16: 100_663_296 } },
      '4096x4096, alpha=0.01': { bytes: { float32: 134_217_728 } },
    },
  },
  "has Tensara's float32 tolerance rtol 1e-4, atol 1e-6": { float32: { rtol: 1e-4, atol: 1e-6 } },
})

describeProblem(gelu, {
  "has Tensara's signature (input, output, n, m)": {
    prototypes: { float32: 'void solution(const float* input, float* output, size_t n, size_t m)' },
    also: () => expect(signatureOf(gelu)).toEqual(signatureOf(relu)),
  },
  "has Tensara's five shapes": { cases: ['4096x4096', '6144x4096', '4096x7168', '4096x8192', '8192x8192'] },
  'counts 9 FLOPs per element (the tanh form, tanh as one), not the 24 Tensara counts': {
    counts: {
      '4096x7168': {
        elements: { input: 29_360_128, output: 29_360_128 },
        flops: 264_241_152,
        bytes: { float32: 234_881_024, float16: 117_440_512 },
      },
    },
  },
  "has Tensara's float32 tolerance rtol 1e-4, atol 2e-5 and says it is the tanh form": {
    float32: { rtol: 1e-4, atol: 2e-5 },
    also: () => expect(gelu.description).toMatch(/tanh/),
  },
})

describeProblem(matrixScalar, {
  "has Tensara's signature (input_matrix, scalar, output_matrix, n), the scalar a float for every dtype": {
    signature: [
      ['input_matrix', 'input', undefined],
      ['scalar', 'scalar', 'float'],
      ['output_matrix', 'output', undefined],
      ['n', 'scalar', 'size_t'],
    ],
    prototypes: {
      float32: 'void solution(const float* input_matrix, float scalar, float* output_matrix, size_t n)',
      float16: 'void solution(const __half* input_matrix, float scalar, __half* output_matrix, size_t n)',
    },
  },
  'has five scalars on each of the two square sizes': {
    cases: [
      '8192x8192 scalar=0.1',
      '8192x8192 scalar=0.2',
      '8192x8192 scalar=-0.3',
      '8192x8192 scalar=0.4',
      '8192x8192 scalar=-0.5',
      '9216x9216 scalar=0.1',
      '9216x9216 scalar=0.2',
      '9216x9216 scalar=-0.3',
      '9216x9216 scalar=0.4',
      '9216x9216 scalar=-0.5',
    ],
    also: () => expect(matrixScalar.cases('float32')[7]!.params).toEqual({ n: 9216, scalar: -0.3 }),
  },
  'counts n² elements, one FLOP each': {
    counts: {
      '9216x9216 scalar=0.4': {
        elements: { input_matrix: 84_934_656, output_matrix: 84_934_656 },
        flops: 84_934_656,
        bytes: { float32: 679_477_248, float16: 339_738_624 },
      },
    },
  },
  "has Tensara's float32 tolerance rtol 1e-4, atol 7e-6 and draws only n for kernelProperty()": {
    float32: { rtol: 1e-4, atol: 7e-6 },
    shapes: { ranges: { n: [1, 2000] } },
  },
})

// The activations with relu's signature and five shapes: Tensara's float32 tolerance and the FLOPs counted per
// element (Tensara's own count, where it differs, in the title).
const ACTIVATIONS = [
  [sigmoid, { rtol: 1e-4, atol: 6e-5 }, 3, 'Tensara counts 1'],
  [tanh, { rtol: 1e-4, atol: 6e-5 }, 1, 'as Tensara'],
  [swish, { rtol: 1e-4, atol: 4e-5 }, 4, 'Tensara counts 1'],
  [softPlus, { rtol: 1e-4, atol: 9e-5 }, 3, 'as Tensara'],
  [selu, { rtol: 1e-4, atol: 8e-5 }, 5, 'Tensara counts 3'],
  [hardSigmoid, { rtol: 1e-4, atol: 6e-5 }, 4, 'Tensara counts 1'],
] as const

for (const [problem, float32, flopsPerElement, tensara] of ACTIVATIONS) {
  describeProblem(problem, {
    "has Tensara's signature (input, output, n, m) and five shapes": {
      prototypes: {
        float32: 'void solution(const float* input, float* output, size_t n, size_t m)',
        bfloat16: 'void solution(const __nv_bfloat16* input, __nv_bfloat16* output, size_t n, size_t m)',
      },
      cases: ['4096x4096', '6144x4096', '4096x7168', '4096x8192', '8192x8192'],
      also: () => expect(signatureOf(problem)).toEqual(signatureOf(relu)),
    },
    [`counts ${flopsPerElement} FLOPs per element (${tensara}) and moves the matrix in and out once`]: {
      counts: {
        '6144x4096': {
          elements: { input: 25_165_824, output: 25_165_824 },
          flops: flopsPerElement * 25_165_824,
          bytes: { float32: 201_326_592, float16: 100_663_296 },
        },
      },
    },
    [`has Tensara's float32 tolerance rtol ${float32.rtol}, atol ${float32.atol}`]: { float32 },
  })
}

describeProblem(elu, {
  "has Tensara's signature (input, output, n, m, alpha), alpha last and a float for every dtype": {
    signature: [
      ['input', 'input', undefined],
      ['output', 'output', undefined],
      ['n', 'scalar', 'size_t'],
      ['m', 'scalar', 'size_t'],
      ['alpha', 'scalar', 'float'],
    ],
    prototypes: {
      float32: 'void solution(const float* input, float* output, size_t n, size_t m, float alpha)',
      float16: 'void solution(const __half* input, __half* output, size_t n, size_t m, float alpha)',
    },
  },
  "has Tensara's five shapes, named without alpha, with alpha 1 in every case": {
    cases: ['4096x4096', '6144x4096', '4096x7168', '4096x8192', '8192x8192'],
    also: () => expect(elu.cases('float32')[1]!.params).toEqual({ n: 6144, m: 4096, alpha: 1 }),
  },
  'counts 4 FLOPs per element (Tensara counts 3)': {
    counts: { '4096x4096': { elements: { input: 16_777_216, output: 16_777_216 }, flops: 67_108_864, bytes: { bfloat16: 67_108_864 } } },
  },
  "has Tensara's float32 tolerance rtol 1e-4, atol 5e-5": { float32: { rtol: 1e-4, atol: 5e-5 } },
})

describeProblem(threshold, {
  "has Tensara's signature (input_image, threshold_value, output_image, height, width), the threshold a float for every dtype": {
    signature: [
      ['input_image', 'input', undefined],
      ['threshold_value', 'scalar', 'float'],
      ['output_image', 'output', undefined],
      ['height', 'scalar', 'size_t'],
      ['width', 'scalar', 'size_t'],
    ],
    prototypes: {
      float32: 'void solution(const float* input_image, float threshold_value, float* output_image, size_t height, size_t width)',
      float16: 'void solution(const __half* input_image, float threshold_value, __half* output_image, size_t height, size_t width)',
      bfloat16:
        'void solution(const __nv_bfloat16* input_image, float threshold_value, __nv_bfloat16* output_image, size_t height, size_t width)',
    },
  },
  "has Tensara's three image sizes × three thresholds, named as Tensara names them (the threshold with its '.0')": {
    cases: [
      '1024x768, threshold=64.0',
      '1024x768, threshold=128.0',
      '1024x768, threshold=192.0',
      '1920x1080, threshold=64.0',
      '1920x1080, threshold=128.0',
      '1920x1080, threshold=192.0',
      '3840x2160, threshold=64.0',
      '3840x2160, threshold=128.0',
      '3840x2160, threshold=192.0',
    ],
    also: () => {
      expect(threshold.cases('float32')[4]!.params).toEqual({ height: 1920, width: 1080, threshold_value: 128 })
      expect(threshold.cases('bfloat16')).toEqual(threshold.cases('float32'))
    },
  },
  'counts one FLOP (the comparison) per pixel and moves the image in and out once': {
    counts: {
      // 1920 · 1080 = 2 073 600 pixels; 2 · 4 and 2 · 2 bytes each.
      '1920x1080, threshold=128.0': {
        elements: { input_image: 2_073_600, output_image: 2_073_600 },
        flops: 2_073_600,
        bytes: { float32: 16_588_800, float16: 8_294_400, bfloat16: 8_294_400 },
      },
    },
  },
  'is exact in every dtype, as Tensara checks it, with pixels drawn from [0, 255] as Tensara draws them': {
    float32: { rtol: 0, atol: 0 },
    ranges: { height: [1, 2000], width: [1, 2000] },
    also: () => {
      expect(threshold.dtypes).toEqual(['float32', 'float16', 'bfloat16'])
      expect(threshold.tolerance.float16).toEqual({ rtol: 0, atol: 0 })
      expect(threshold.tolerance.bfloat16).toEqual({ rtol: 0, atol: 0 })
      expect(threshold.inputRange).toEqual([0, 255])
      expectCudaReference(threshold, 'threshold.cu')
    },
  },
})

describe('HALF_TOLERANCES', () => {
  // u: unit roundoff. One ulp of disagreement is up to 2u; rounding a scalar or intermediate adds up to 2u.
  it.each([
    ['float16', 2 ** -11],
    ['bfloat16', 2 ** -8],
  ] as const)('%s allows 4u but not 8u of relative error', (dtype, u) => {
    expect(HALF_TOLERANCES[dtype].rtol).toBeGreaterThanOrEqual(4 * u)
    expect(HALF_TOLERANCES[dtype].rtol).toBeLessThan(8 * u)
  })
})

describe('rowsColsCase', () => {
  it('names a case rows x cols and appends extra parameters as Tensara does', () => {
    expect(rowsColsCase(6144, 4096)).toEqual({ name: '6144x4096', params: { n: 6144, m: 4096 } })
    expect(rowsColsCase(4096, 4096, { alpha: 0.05 })).toEqual({ name: '4096x4096, alpha=0.05', params: { n: 4096, m: 4096, alpha: 0.05 } })
  })
})

describe('activationProblem', () => {
  it("gives relu's signature and five shapes where the spec gives none, and keeps those it gives", () => {
    const spec = { name: 'scale-rows', description: 'test', flopsPerElement: 2, float32: { rtol: 1e-6, atol: 1e-7 } }
    const problem = activationProblem(spec)
    expect(signatureOf(problem)).toEqual(signatureOf(relu))
    expect(problem.cases('float32')).toEqual(relu.cases('float32'))
    expect(activationProblem({ ...spec, cases: [rowsColsCase(3, 5)] }).cases('float32')).toEqual([rowsColsCase(3, 5)])
  })
})

describe('elementwiseProblem', () => {
  const problem = elementwiseProblem({
    name: 'scale-rows',
    description: 'test',
    signature: [
      { name: 'x', kind: 'input' },
      { name: 'y', kind: 'output' },
      { name: 'n', kind: 'scalar', ctype: 'size_t' },
      { name: 'm', kind: 'scalar', ctype: 'size_t' },
    ],
    dims: ['n', 'm'],
    cases: [rowsColsCase(3, 5)],
    flopsPerElement: 4,
    float32: { rtol: 1e-6, atol: 1e-7 },
  })
  const c = problem.cases('float32')[0]!

  it('gives every pointer the product of the dims and counts FLOPs per element', () => {
    expect(problem.elements(c)).toEqual({ x: 15, y: 15 })
    expect(problem.flops(c)).toBe(60)
    expect(problem.bytes(c, 'bfloat16')).toBe(60)
  })

  it('keeps the given float32 tolerance next to the half ones', () => {
    expect(problem.tolerance).toEqual({ float32: { rtol: 1e-6, atol: 1e-7 }, ...HALF_TOLERANCES })
  })

  it('looks for the reference at cuda/references/<name>.cu', () => {
    expect(problem.reference).toEqual({ kind: 'cuda', file: packagePath('cuda/references/scale-rows.cu') })
  })

  it('draws inputs from [-1, 1] unless given a range, and takes half-type tolerances in place of the shared ones', () => {
    expect(problem.inputRange).toEqual([-1, 1])
    const exact = { rtol: 0, atol: 0 }
    const own = activationProblem({ name: 'step', description: 'test', flopsPerElement: 1, float32: exact, halfTolerances: { float16: exact, bfloat16: exact }, inputRange: [0, 255] })
    expect(own.tolerance).toEqual({ float32: exact, float16: exact, bfloat16: exact })
    expect(own.inputRange).toEqual([0, 255])
  })
})
