// The pooling family: avg-pool-1d, -2d, -3d and max-pool-1d, -2d, -3d. Signatures, Tensara's cases, element, FLOP
// and byte counts worked out by hand, tolerances, references, random shapes and the shared output extent.
import { describe, expect, it } from 'vitest'
import { avgPool1d } from '../../problems/avg-pool-1d/index.js'
import { avgPool2d } from '../../problems/avg-pool-2d/index.js'
import { avgPool3d } from '../../problems/avg-pool-3d/index.js'
import { maxPool1d } from '../../problems/max-pool-1d/index.js'
import { maxPool2d } from '../../problems/max-pool-2d/index.js'
import { maxPool3d } from '../../problems/max-pool-3d/index.js'
import { pooledExtent, readPositions } from '../../problems/pool-common/pool.js'
import { caseNamed, describeFloat32Family, describeProblem } from '../helpers/problem-tests.js'

describeFloat32Family(
  [avgPool1d, avgPool2d, avgPool3d, maxPool1d, maxPool2d, maxPool3d].map((problem) => ({ problem, reference: `${problem.name}.cu` })),
  (problem) => {
    it('draws inputs from [-1, 1], as Tensara does', () => {
      expect(problem.inputRange).toEqual([-1, 1])
    })

    it('accepts only random shapes whose every window holds an input element, padding at most half the kernel', () => {
      const valid = problem.shapes!.valid!
      const extents = Object.fromEntries(['H', 'W', 'D'].filter((e) => e in problem.shapes!.ranges).map((e) => [e, 5]))
      const window = { kernel_size: 3, stride: 2, padding: 1, ...(problem.name.startsWith('max') ? { dilation: 2 } : {}) }
      expect(valid({ ...extents, ...window })).toBe(true)
      expect(valid({ ...extents, ...window, padding: 2 })).toBe(false) // 2·2 > 3
      // The dilated window spans 2·(3 − 1) + 1 = 5 positions: an extent of 4 is too short; without dilation 3 fits.
      const short = Object.fromEntries(Object.keys(extents).map((e) => [e, 4]))
      expect(valid({ ...short, ...window })).toBe(!problem.name.startsWith('max'))
      // Every default case is a valid shape too.
      for (const c of problem.cases('float32')) expect(valid(c.params), c.name).toBe(true)
    })
  },
)

describe('pooledExtent', () => {
  it("is PyTorch's floor((n + 2P − dilation·(K − 1) − 1) / S) + 1", () => {
    expect(pooledExtent(16, 3, 2, 1)).toBe(8) // Tensara's sample: floor(15 / 2) + 1
    expect(pooledExtent(1024, 3, 3, 1, 2)).toBe(341) // floor(1021 / 3) + 1
    expect(pooledExtent(7, 2, 2, 0)).toBe(3) // the last odd element is dropped (floor mode)
    expect(pooledExtent(1, 1, 1, 0)).toBe(1)
  })
})

describeProblem(avgPool1d, {
  "has Tensara's signature (input, kernel_size, stride, padding, output, H)": {
    prototypes: { float32: 'void solution(const float* input, int kernel_size, int stride, int padding, float* output, size_t H)' },
  },
  "has Tensara's six cases, H = 2^21 … 2^26": {
    cases: [
      'H=2097152, K=7, S=4, P=3', 'H=4194304, K=2, S=1, P=0', 'H=8388608, K=3, S=2, P=1',
      'H=16777216, K=4, S=2, P=1', 'H=33554432, K=3, S=1, P=1', 'H=67108864, K=5, S=3, P=2',
    ],
    also: () => expect(caseNamed(avgPool1d, 'H=2097152, K=7, S=4, P=3').params).toEqual({ H: 2097152, kernel_size: 7, stride: 4, padding: 3 }),
  },
  "counts Tensara's K FLOPs per output and reads the input once and writes the output once": {
    counts: {
      // H_out = floor((2097152 + 6 − 7) / 4) + 1 = 524288; 7 · 524288 FLOPs; 4 · (2097152 + 524288) bytes.
      'H=2097152, K=7, S=4, P=3': { elements: { input: 2097152, output: 524288 }, flops: 3670016, bytes: { float32: 10485760 } },
    },
  },
  "has Tensara's tolerance rtol 2e-4, atol 4e-5": {
    float32: { rtol: 2e-4, atol: 4e-5 },
    ranges: { kernel_size: [1, 7], stride: [1, 4], padding: [0, 3], H: [1, 1048576] },
  },
})

describeProblem(avgPool2d, {
  "has Tensara's signature (input, kernel_size, stride, padding, output, H, W)": {
    prototypes: { float32: 'void solution(const float* input, int kernel_size, int stride, int padding, float* output, size_t H, size_t W)' },
  },
  "has Tensara's six cases, 2048² to 16384²": {
    cases: [
      'H=8192, W=4096, K=2, S=2, P=0', 'H=8192, W=8192, K=3, S=2, P=1', 'H=16384, W=16384, K=4, S=4, P=2',
      'H=8192, W=8192, K=3, S=3, P=1', 'H=2048, W=2048, K=5, S=2, P=2', 'H=4096, W=4096, K=7, S=3, P=3',
    ],
  },
  "counts Tensara's K² FLOPs per output": {
    counts: {
      // 4096 × 2048 outputs, 4 FLOPs each; 4 · (8192 · 4096 + 4096 · 2048) bytes.
      'H=8192, W=4096, K=2, S=2, P=0': { elements: { input: 33554432, output: 8388608 }, flops: 33554432, bytes: { float32: 167772160 } },
      // floor((4096 + 6 − 7) / 3) + 1 = 1366 per side: 1366² = 1865956 outputs, 49 FLOPs each.
      'H=4096, W=4096, K=7, S=3, P=3': { elements: { input: 16777216, output: 1865956 }, flops: 91431844, bytes: { float32: 74572688 } },
    },
  },
  "has Tensara's tolerance rtol 2e-4, atol 2e-5": {
    float32: { rtol: 2e-4, atol: 2e-5 },
    ranges: { kernel_size: [1, 7], stride: [1, 4], padding: [0, 3], H: [1, 1024], W: [1, 1024] },
  },
})

describeProblem(avgPool3d, {
  "has Tensara's signature (input, kernel_size, stride, padding, output, H, W, D)": {
    prototypes: {
      float32: 'void solution(const float* input, int kernel_size, int stride, int padding, float* output, size_t H, size_t W, size_t D)',
    },
  },
  "has Tensara's five cubes, 192³ to 1024³": {
    cases: [
      'H=192, W=192, D=192, K=5, S=2, P=2', 'H=224, W=224, D=224, K=7, S=3, P=3', 'H=512, W=512, D=512, K=3, S=3, P=1',
      'H=784, W=784, D=784, K=5, S=2, P=2', 'H=1024, W=1024, D=1024, K=3, S=3, P=1',
    ],
  },
  "counts Tensara's K³ FLOPs per output": {
    counts: {
      // floor((192 + 4 − 5) / 2) + 1 = 96 per side: 96³ = 884736 outputs, 125 FLOPs each; 4 · (192³ + 96³) bytes.
      'H=192, W=192, D=192, K=5, S=2, P=2': { elements: { input: 7077888, output: 884736 }, flops: 110592000, bytes: { float32: 31850496 } },
      // 392³ = 60236288 outputs, 125 FLOPs each.
      'H=784, W=784, D=784, K=5, S=2, P=2': { elements: { input: 481890304, output: 60236288 }, flops: 7529536000, bytes: { float32: 2168506368 } },
    },
  },
  "has Tensara's tolerance rtol 2e-4, atol 1e-5": {
    float32: { rtol: 2e-4, atol: 1e-5 },
    ranges: { kernel_size: [1, 7], stride: [1, 4], padding: [0, 3], H: [1, 64], W: [1, 64], D: [1, 64] },
  },
})

describeProblem(maxPool1d, {
  "has Tensara's signature (input, kernel_size, stride, padding, dilation, output, H)": {
    prototypes: { float32: 'void solution(const float* input, int kernel_size, int stride, int padding, int dilation, float* output, size_t H)' },
  },
  "has Tensara's six cases, H = 2^21 … 2^26, dilation 2 in one": {
    cases: [
      'H=2097152, K=7, S=4, P=3, d=1', 'H=4194304, K=2, S=1, P=0, d=1', 'H=8388608, K=3, S=2, P=1, d=1',
      'H=16777216, K=4, S=2, P=1, d=2', 'H=33554432, K=3, S=1, P=1, d=1', 'H=67108864, K=5, S=3, P=2, d=1',
    ],
    also: () =>
      expect(caseNamed(maxPool1d, 'H=16777216, K=4, S=2, P=1, d=2').params).toEqual({ H: 16777216, kernel_size: 4, stride: 2, padding: 1, dilation: 2 }),
  },
  "counts Tensara's K − 1 comparisons per output of the dilated window": {
    counts: {
      // H_out = floor((16777216 + 2 − 2 · 3 − 1) / 2) + 1 = 8388606; 3 comparisons each. The taps read 2o − 1 + 2k:
      // the odd positions only, 2^23 of them, so 4 · (2^23 + 8388606) bytes.
      'H=16777216, K=4, S=2, P=1, d=2': { elements: { input: 16777216, output: 8388606 }, flops: 25165818, bytes: { float32: 67108856 } },
    },
  },
  "has Tensara's tolerance rtol 1e-4, atol 7e-5": {
    float32: { rtol: 1e-4, atol: 7e-5 },
    ranges: { kernel_size: [1, 7], stride: [1, 4], padding: [0, 3], dilation: [1, 3], H: [1, 1048576] },
  },
})

describeProblem(maxPool2d, {
  "has Tensara's signature (input, kernel_size, stride, padding, dilation, output, H, W)": {
    prototypes: {
      float32: 'void solution(const float* input, int kernel_size, int stride, int padding, int dilation, float* output, size_t H, size_t W)',
    },
  },
  "has Tensara's six cases, 1024² to 16384²": {
    cases: [
      'H=4096, W=4096, K=2, S=2, P=0, D=1', 'H=8192, W=8192, K=3, S=2, P=1, D=1', 'H=16384, W=16384, K=4, S=4, P=2, D=1',
      'H=1024, W=1024, K=3, S=3, P=1, D=2', 'H=2048, W=2048, K=5, S=2, P=2, D=1', 'H=4096, W=4096, K=7, S=3, P=3, D=1',
    ],
  },
  "counts Tensara's K² − 1 comparisons per output over extents without the dilation, as Tensara does": {
    counts: {
      // The output is floor((1024 + 2 − 2 · 2 − 1) / 3) + 1 = 341 per side, 341² = 116281 elements; Tensara's FLOPs
      // use floor((1024 + 2 − 3) / 3) + 1 = 342 per side: 342² · 8 = 935712. The taps 3o − 1, 3o + 1, 3o + 3 read
      // every position but 0 and 1022: 1022² input elements, 4 · (1022² + 341²) bytes.
      'H=1024, W=1024, K=3, S=3, P=1, D=2': { elements: { input: 1048576, output: 116281 }, flops: 935712, bytes: { float32: 4643060 } },
    },
  },
  "has Tensara's tolerance rtol 1e-4, atol 8e-5": {
    float32: { rtol: 1e-4, atol: 8e-5 },
    ranges: { kernel_size: [1, 7], stride: [1, 4], padding: [0, 3], dilation: [1, 3], H: [1, 1024], W: [1, 1024] },
  },
})

describeProblem(maxPool3d, {
  "has Tensara's signature (input, kernel_size, stride, padding, dilation, output, H, W, D)": {
    prototypes: {
      float32:
        'void solution(const float* input, int kernel_size, int stride, int padding, int dilation, float* output, size_t H, size_t W, size_t D)',
    },
  },
  "has Tensara's six cubes, 256³ to 1024³": {
    cases: [
      'H=256, W=256, D=256, K=2, S=2, P=0, dilation=2', 'H=512, W=512, D=512, K=3, S=2, P=1, dilation=1', 'H=1024, W=1024, D=1024, K=4, S=4, P=2, dilation=1',
      'H=512, W=512, D=512, K=3, S=3, P=1, dilation=3', 'H=1024, W=1024, D=1024, K=5, S=2, P=2, dilation=2', 'H=1024, W=1024, D=1024, K=7, S=3, P=3, dilation=1',
    ],
  },
  "counts Tensara's K³ − 1 comparisons per output over extents without the dilation, as Tensara does": {
    counts: {
      // Output floor((512 + 2 − 3 · 2 − 1) / 3) + 1 = 170 per side; Tensara's FLOPs: (floor(511 / 3) + 1)³ · 26 = 171³ · 26.
      // The taps 3(o + k) − 1 read only every third position, 170 per side: 4 · (170³ + 170³) bytes, not the whole
      // input (an H100 read this case at 109% of a floor that counted it all).
      'H=512, W=512, D=512, K=3, S=3, P=1, dilation=3': {
        elements: { input: 134217728, output: 4913000 },
        flops: 130005486,
        bytes: { float32: 39304000 },
      },
      // Output floor(1019 / 2) + 1 = 510 per side; Tensara's FLOPs: (floor(1023 / 2) + 1)³ · 124 = 512³ · 124. The
      // taps 2(o + k) − 2 read the even positions only, 512 per side: 4 · (512³ + 510³) bytes.
      'H=1024, W=1024, D=1024, K=5, S=2, P=2, dilation=2': {
        elements: { input: 1073741824, output: 132651000 },
        flops: 16642998272,
        bytes: { float32: 1067474912 },
      },
    },
  },
  "has Tensara's tolerance rtol 9e-5, atol 9e-5": {
    float32: { rtol: 9e-5, atol: 9e-5 },
    ranges: { kernel_size: [1, 7], stride: [1, 4], padding: [0, 3], dilation: [1, 3], H: [1, 64], W: [1, 64], D: [1, 64] },
  },
})

it('exports every pooling problem from the catalogue', async () => {
  const problems = await import('../../problems/index.js')
  const exported = [problems.avgPool1d, problems.avgPool2d, problems.avgPool3d, problems.maxPool1d, problems.maxPool2d, problems.maxPool3d]
  const defined = [avgPool1d, avgPool2d, avgPool3d, maxPool1d, maxPool2d, maxPool3d]
  exported.forEach((problem, i) => expect(problem).toBe(defined[i]))
})

describe('readPositions', () => {
  it('counts the input positions some window reads, per dimension', () => {
    // n = 9, K = 3, S = 3, P = 1, dilation 3: two outputs, taps at 3o − 1 + 3k: positions 2, 5 and 8.
    expect(readPositions(9, 3, 3, 1, 3)).toBe(3)
    // Windows that overlap read every position.
    expect(readPositions(8, 2, 1, 0, 1)).toBe(8)
    // A stride wider than the window skips positions: K = 2, S = 4 on 16 reads 0, 1, 4, 5, 8, 9, 12, 13.
    expect(readPositions(16, 2, 4, 0, 1)).toBe(8)
    // Padding is not input: K = 3, S = 1, P = 1 on 5 reads all 5.
    expect(readPositions(5, 3, 1, 1, 1)).toBe(5)
  })
})
