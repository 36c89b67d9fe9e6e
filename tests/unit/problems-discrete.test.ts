// The problems with discrete answers: histogram. Signatures, Tensara's cases, element, FLOP and byte counts worked
// out by hand, tolerances, references, input ranges and random shapes.
import { expect } from 'vitest'
import { histogram } from '../../problems/histogram/index.js'
import { caseNamed, describeFloat32Family, describeProblem } from '../helpers/problem-tests.js'

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
