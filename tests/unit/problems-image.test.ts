// The image family: grayscale, box-blur, edge-detect. Signatures, Tensara's cases, element, FLOP and byte counts
// worked out by hand, tolerances, references, input range and random shapes.
import { describe, expect, it } from 'vitest'
import { boxBlur } from '../../problems/box-blur/index.js'
import { edgeDetect } from '../../problems/edge-detect/index.js'
import { grayscale } from '../../problems/grayscale/index.js'
import { imageCases } from '../../problems/image-common/image.js'
import { caseNamed, describeFloat32Family, describeProblem } from '../helpers/problem-tests.js'

describeFloat32Family(
  [grayscale, boxBlur, edgeDetect].map((problem) => ({ problem, reference: `${problem.name}.cu` })),
  (problem) => {
    it('draws pixels from [0, 255], as Tensara does', () => {
      expect(problem.inputRange).toEqual([0, 255])
    })
  },
)

describe('imageCases', () => {
  it("names a case after the image's size, with what else it has after a comma", () => {
    expect(imageCases([[1920, 1080]])).toEqual([{ name: '1920x1080', params: { height: 1920, width: 1080 } }])
    expect(imageCases([[8, 4]], { kernel_size: 3 }, 'kernel=3x3')).toEqual([
      { name: '8x4, kernel=3x3', params: { height: 8, width: 4, kernel_size: 3 } },
    ])
  })
})

describeProblem(grayscale, {
  "has Tensara's signature (rgb_image, grayscale_output, height, width, channels)": {
    prototypes: { float32: 'void solution(const float* rgb_image, float* grayscale_output, size_t height, size_t width, size_t channels)' },
  },
  "has Tensara's four sizes, 512² to 3840×2160, three channels each": {
    cases: ['512x512', '1024x768', '1920x1080', '3840x2160'],
    also: () => expect(caseNamed(grayscale, '1024x768').params).toEqual({ height: 1024, width: 768, channels: 3 }),
  },
  "counts Tensara's 5 FLOPs per pixel and reads three floats and writes one per pixel": {
    counts: {
      // 262144 pixels: 786432 input floats, 5 · 262144 FLOPs, 4 · (786432 + 262144) bytes.
      '512x512': { elements: { rgb_image: 786432, grayscale_output: 262144 }, flops: 1310720, bytes: { float32: 4194304 } },
      // 8294400 pixels: 24883200 input floats, 5 · 8294400 FLOPs, 16 · 8294400 bytes.
      '3840x2160': { elements: { rgb_image: 24883200, grayscale_output: 8294400 }, flops: 41472000, bytes: { float32: 132710400 } },
    },
  },
  "has Tensara's tolerance rtol 1e-5, atol 1e-5 and random images up to 1024² (channels stays 3)": {
    float32: { rtol: 1e-5, atol: 1e-5 },
    ranges: { height: [1, 1024], width: [1, 1024] },
  },
})

describeProblem(boxBlur, {
  "has Tensara's signature (input_image, kernel_size, output_image, height, width)": {
    prototypes: { float32: 'void solution(const float* input_image, int kernel_size, float* output_image, size_t height, size_t width)' },
  },
  "has Tensara's six cases, 1920×1080 and 2048² with K = 15, 21, 27": {
    cases: [
      '1920x1080, kernel=15x15', '1920x1080, kernel=21x21', '1920x1080, kernel=27x27',
      '2048x2048, kernel=15x15', '2048x2048, kernel=21x21', '2048x2048, kernel=27x27',
    ],
    also: () => expect(caseNamed(boxBlur, '2048x2048, kernel=21x21').params).toEqual({ height: 2048, width: 2048, kernel_size: 21 }),
  },
  "counts Tensara's K² FLOPs per pixel, border pixels included": {
    counts: {
      // 2073600 pixels, 225 FLOPs each; 8 · 2073600 bytes.
      '1920x1080, kernel=15x15': { elements: { input_image: 2073600, output_image: 2073600 }, flops: 466560000, bytes: { float32: 16588800 } },
      // 4194304 pixels, 729 FLOPs each; 8 · 4194304 bytes.
      '2048x2048, kernel=27x27': { elements: { input_image: 4194304, output_image: 4194304 }, flops: 3057647616, bytes: { float32: 33554432 } },
    },
  },
  "has Tensara's tolerance rtol 1e-4, atol 1e-4 and random odd kernels up to 31": {
    float32: { rtol: 1e-4, atol: 1e-4 },
    ranges: { height: [1, 512], width: [1, 512], kernel_size: [1, 31] },
    also: () => {
      const valid = boxBlur.shapes!.valid!
      expect(valid({ height: 5, width: 5, kernel_size: 3 })).toBe(true)
      expect(valid({ height: 5, width: 5, kernel_size: 4 })).toBe(false)
      // A window wider than the image is allowed: it averages the whole image, as Tensara's reference does.
      expect(valid({ height: 2, width: 3, kernel_size: 31 })).toBe(true)
      for (const c of boxBlur.cases('float32')) expect(valid(c.params), c.name).toBe(true)
    },
  },
})

describeProblem(edgeDetect, {
  "has Tensara's signature (input_image, output_image, height, width)": {
    prototypes: { float32: 'void solution(const float* input_image, float* output_image, size_t height, size_t width)' },
  },
  "has Tensara's five sizes, 1024×768 to 4096²": {
    cases: ['1024x768', '1920x1080', '2048x2048', '2560x1440', '4096x4096'],
    also: () => expect(caseNamed(edgeDetect, '2560x1440').params).toEqual({ height: 2560, width: 1440 }),
  },
  "counts Tensara's 10 FLOPs per interior pixel, none for the border": {
    counts: {
      // 1022 · 766 = 782852 interior pixels, 10 FLOPs each; 8 · 786432 bytes.
      '1024x768': { elements: { input_image: 786432, output_image: 786432 }, flops: 7828520, bytes: { float32: 6291456 } },
      // 4094² = 16760836 interior pixels; 8 · 16777216 bytes.
      '4096x4096': { elements: { input_image: 16777216, output_image: 16777216 }, flops: 167608360, bytes: { float32: 134217728 } },
    },
  },
  "has Tensara's tolerance rtol 1e-3, atol 1e-3 and random images from 3² (one interior pixel) to 1024²": {
    float32: { rtol: 1e-3, atol: 1e-3 },
    shapes: { ranges: { height: [3, 1024], width: [3, 1024] } },
  },
})

it('exports every image problem from the catalogue', async () => {
  const problems = await import('../../problems/index.js')
  const defined = [grayscale, boxBlur, edgeDetect]
  ;[problems.grayscale, problems.boxBlur, problems.edgeDetect].forEach((problem, i) => expect(problem).toBe(defined[i]))
})
