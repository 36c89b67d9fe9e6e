// The problems with discrete answers: histogram, array-sort. Signatures, Tensara's cases, element, FLOP and byte counts worked
// out by hand, tolerances, references, input ranges and random shapes.
import { describe, expect, it } from 'vitest'
import { arraySort } from '../../problems/array-sort/index.js'
import { histogram } from '../../problems/histogram/index.js'
import { caseNamed, describeFloat32Family, describeProblem, expectCudaReference } from '../helpers/problem-tests.js'

describeFloat32Family([{ problem: histogram, reference: 'histogram.cu' }])

describeProblem(histogram, {
  "has Tensara's signature (image, num_bins, histogram, height, width)": {
    prototypes: { float32: 'void solution(const float* image, int num_bins, float* histogram, size_t height, size_t width)' },
  },
  "has Tensara's nine cases: three image sizes × 64, 128 and 256 bins": {
    cases: [
      '2560x1440, bins=64', '2560x1440, bins=128', '2560x1440, bins=256',
      '2048x2048, bins=64', '2048x2048, bins=128', '2048x2048, bins=256',
      '4096x4096, bins=64', '4096x4096, bins=128', '4096x4096, bins=256',
    ],
    also: () => expect(caseNamed(histogram, '2048x2048, bins=128').params).toEqual({ height: 2048, width: 2048, num_bins: 128 }),
  },
  "counts Tensara's 4 FLOPs per pixel, reads each pixel and writes each bin": {
    counts: {
      // 3686400 pixels: 4 · 3686400 FLOPs, 4 · (3686400 + 64) bytes.
      '2560x1440, bins=64': { elements: { image: 3686400, histogram: 64 }, flops: 14745600, bytes: { float32: 14745856 } },
      // 16777216 pixels: 4 · 16777216 FLOPs, 4 · (16777216 + 256) bytes.
      '4096x4096, bins=256': { elements: { image: 16777216, histogram: 256 }, flops: 67108864, bytes: { float32: 67109888 } },
    },
  },
  'compares counts exactly, draws pixels inside the 64 bins of the smallest case, and random images up to 1024²': {
    float32: { rtol: 0, atol: 0 },
    ranges: { height: [1, 1024], width: [1, 1024], num_bins: [64, 256] },
    also: () => expect(histogram.inputRange).toEqual([0, 63.999]),
  },
})

describe('array-sort', () => {
  it('supports int32 only, with a description and a CUDA reference', () => {
    expect(arraySort.dtypes).toEqual(['int32'])
    expect(arraySort.description).not.toBe('')
    expectCudaReference(arraySort, 'array-sort.cu')
  })
})

describeProblem(arraySort, {
  "has Tensara's signature (a, b, n) on int": {
    prototypes: { int32: 'void solution(const int* a, int* b, size_t n)' },
  },
  "has Tensara's five sizes, 16384 to 262144": {
    cases: ['size_16384', 'size_32768', 'size_65536', 'size_131072', 'size_262144'],
    params: [{ n: 16384 }, { n: 32768 }, { n: 65536 }, { n: 131072 }, { n: 262144 }],
  },
  'counts n·log₂ n comparisons, reads and writes n ints': {
    counts: {
      // 16384 · 14 comparisons; 4 · 2 · 16384 bytes.
      size_16384: { elements: { a: 16384, b: 16384 }, flops: 229376, bytes: { int32: 131072 } },
      // 262144 · 18 comparisons; 4 · 2 · 262144 bytes.
      size_262144: { elements: { a: 262144, b: 262144 }, flops: 4718592, bytes: { int32: 2097152 } },
    },
  },
  "compares exactly, draws Tensara's [1, 10⁹) and random arrays up to 65536": {
    also: () => {
      expect(arraySort.tolerance.int32).toEqual({ rtol: 0, atol: 0 })
      expect(arraySort.inputRange).toEqual([1, 1e9])
      expect(arraySort.shapes?.ranges).toEqual({ n: [1, 65536] })
    },
  },
})
