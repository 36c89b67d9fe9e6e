// Histogram, sorting and graphs: histogram, array-sort, shortest-path, all-pairs-shortest-path, min-spanning-tree. Signatures, Tensara's cases, element, FLOP and byte counts worked
// out by hand, tolerances, references, input ranges and random shapes.
import { describe, expect, it } from 'vitest'
import { allPairsShortestPath } from '../../problems/all-pairs-shortest-path/index.js'
import { arraySort } from '../../problems/array-sort/index.js'
import { graphCases } from '../../problems/graph-common/graph.js'
import { histogram } from '../../problems/histogram/index.js'
import { minSpanningTree } from '../../problems/min-spanning-tree/index.js'
import { shortestPath } from '../../problems/shortest-path/index.js'
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

describeFloat32Family([shortestPath, allPairsShortestPath, minSpanningTree].map((problem) => ({ problem, reference: `${problem.name}.cu` })), (problem) => {
  it("has Tensara's tolerance rtol 1e-4, atol 1e-3", () => {
    expect(problem.tolerance.float32).toEqual({ rtol: 1e-4, atol: 1e-3 })
  })
})

describe('graphCases', () => {
  it('names a case after its vertex count, with what the count gives it', () => {
    expect(graphCases([512])).toEqual([{ name: 'n = 512', params: { n: 512 } }])
    expect(graphCases([8], (n) => ({ source: n / 2 }))).toEqual([{ name: 'n = 8', params: { n: 8, source: 4 } }])
  })
})

describeProblem(shortestPath, {
  "has Tensara's signature (d_adj_matrix, source, d_distances, n)": {
    prototypes: { float32: 'void solution(const float* d_adj_matrix, int source, float* d_distances, size_t n)' },
  },
  "has Tensara's five sizes, 512 to 8192, the source fixed at n / 2": {
    cases: ['n = 512', 'n = 2048', 'n = 4096', 'n = 6144', 'n = 8192'],
    params: [{ n: 512, source: 256 }, { n: 2048, source: 1024 }, { n: 4096, source: 2048 }, { n: 6144, source: 3072 }, { n: 8192, source: 4096 }],
  },
  'counts 2n² (one relaxation per edge), reads the matrix and writes n distances': {
    counts: {
      // 512² = 262144 matrix elements: 524288 FLOPs, 4 · (262144 + 512) bytes.
      'n = 512': { elements: { d_adj_matrix: 262144, d_distances: 512 }, flops: 524288, bytes: { float32: 1050624 } },
      // 8192² = 67108864 matrix elements: 134217728 FLOPs, 4 · (67108864 + 8192) bytes.
      'n = 8192': { elements: { d_adj_matrix: 67108864, d_distances: 8192 }, flops: 134217728, bytes: { float32: 268468224 } },
    },
  },
  "draws weights from Tensara's [1, 11) and random graphs up to 1024 vertices with the source among them": {
    ranges: { n: [1, 1024], source: [0, 1023] },
    also: () => {
      expect(shortestPath.inputRange).toEqual([1, 11])
      const valid = shortestPath.shapes!.valid!
      expect(valid({ n: 10, source: 9 })).toBe(true)
      expect(valid({ n: 10, source: 10 })).toBe(false)
    },
  },
})

describeProblem(allPairsShortestPath, {
  "has Tensara's signature (adj_matrix, output, n)": {
    prototypes: { float32: 'void solution(const float* adj_matrix, float* output, size_t n)' },
  },
  "has Tensara's four sizes, 512 to 4096": {
    cases: ['n = 512', 'n = 1024', 'n = 2048', 'n = 4096'],
    params: [{ n: 512 }, { n: 1024 }, { n: 2048 }, { n: 4096 }],
  },
  "counts Floyd-Warshall's 2n³, reads and writes an n×n matrix": {
    counts: {
      // 2 · 512³ FLOPs; 4 · 2 · 262144 bytes.
      'n = 512': { elements: { adj_matrix: 262144, output: 262144 }, flops: 268435456, bytes: { float32: 2097152 } },
      // 2 · 4096³ FLOPs; 4 · 2 · 16777216 bytes.
      'n = 4096': { elements: { adj_matrix: 16777216, output: 16777216 }, flops: 137438953472, bytes: { float32: 134217728 } },
    },
  },
  "draws weights from Tensara's [1, 20) and random graphs up to 1024 vertices": {
    shapes: { ranges: { n: [1, 1024] }, valid: undefined },
    also: () => expect(allPairsShortestPath.inputRange).toEqual([1, 20]),
  },
})

describeProblem(minSpanningTree, {
  "has Tensara's signature (A, min_weight, n), A symmetric": {
    prototypes: { float32: 'void solution(const float* A, float* min_weight, size_t n)' },
    also: () => expect(minSpanningTree.signature[0]).toEqual({ name: 'A', kind: 'input', structure: 'symmetric' }),
  },
  "has Tensara's four sizes, 1024 to 6144": {
    cases: ['n = 1024', 'n = 2048', 'n = 4096', 'n = 6144'],
    params: [{ n: 1024 }, { n: 2048 }, { n: 4096 }, { n: 6144 }],
  },
  "counts Prim's n² comparisons, reads the matrix and writes one float": {
    counts: {
      // 1024² FLOPs; 4 · (1048576 + 1) bytes.
      'n = 1024': { elements: { A: 1048576, min_weight: 1 }, flops: 1048576, bytes: { float32: 4194308 } },
      // 6144² FLOPs; 4 · (37748736 + 1) bytes.
      'n = 6144': { elements: { A: 37748736, min_weight: 1 }, flops: 37748736, bytes: { float32: 150994948 } },
    },
  },
  "draws weights from Tensara's [1, 21) and random graphs up to 1024 vertices": {
    shapes: { ranges: { n: [1, 1024] }, valid: undefined },
    also: () => expect(minSpanningTree.inputRange).toEqual([1, 21]),
  },
})
