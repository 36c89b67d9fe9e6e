// The loss family: mse-loss, huber-loss, kl-loss, hinge-loss, cosine-similarity and triplet-margin. Signatures, Tensara's cases,
// element, FLOP and byte counts worked out by hand, tolerances, input ranges and references.
import { expect, it } from 'vitest'
import { cosineSimilarity } from '../../problems/cosine-similarity/index.js'
import { hingeLoss } from '../../problems/hinge-loss/index.js'
import { huberLoss } from '../../problems/huber-loss/index.js'
import { klLoss } from '../../problems/kl-loss/index.js'
import { mseLoss } from '../../problems/mse-loss/index.js'
import { tripletMargin } from '../../problems/triplet-margin/index.js'
import type { ArrayParam } from '../../src/spec/signature.js'
import { caseNamed, describeFloat32Family, describeProblem, signatureOf } from '../helpers/problem-tests.js'

const PAIRWISE_CASES = ['N=1048576', 'N=4194304', 'N=16777216', 'N=67108864']
const PAIRWISE_PROTOTYPE = 'void solution(const float* predictions, const float* targets, float* output, size_t n)'

describeFloat32Family([
  { problem: mseLoss, reference: 'mse-loss.cu' },
  { problem: huberLoss, reference: 'huber-loss.cu' },
  { problem: klLoss, reference: 'kl-loss.cu' },
  { problem: hingeLoss, reference: 'hinge-loss.cu' },
  { problem: cosineSimilarity, reference: 'cosine-similarity.cu' },
  { problem: tripletMargin, reference: 'triplet-margin.cu' },
])

describeProblem(mseLoss, {
  "has Tensara's signature (predictions, targets, output, shape, ndim), the size_t shape in host memory": {
    signature: [
      ['predictions', 'input', undefined],
      ['targets', 'input', undefined],
      ['output', 'output', undefined],
      ['shape', 'array', undefined],
      ['ndim', 'scalar', 'size_t'],
    ],
    prototypes: { float32: 'void solution(const float* predictions, const float* targets, float* output, const size_t* shape, size_t ndim)' },
    also: () => {
      const shape = mseLoss.signature.find((p) => p.kind === 'array') as ArrayParam
      expect([shape.ctype, shape.memory]).toEqual(['size_t', 'host'])
      expect(shape.values(caseNamed(mseLoss, 'shape=(32, 32, 32, 32, 32)').params)).toEqual([32, 32, 32, 32, 32])
      expect(shape.values(caseNamed(mseLoss, 'shape=(512, 512, 512)').params)).toEqual([512, 512, 512])
    },
  },
  "has Tensara's five shapes of two to five dimensions, named as Tensara names them": {
    cases: ['shape=(4096, 4096)', 'shape=(8192, 8192)', 'shape=(512, 512, 512)', 'shape=(64, 64, 64, 64)', 'shape=(32, 32, 32, 32, 32)'],
    also: () => expect(mseLoss.cases('float32')[2]!.params).toEqual({ ndim: 3, shape0: 512, shape1: 512, shape2: 512, shape3: 1, shape4: 1 }),
  },
  'counts 3N FLOPs and moves both inputs in and one float out': {
    counts: {
      // N = 2^24: N subtractions, N squares, N − 1 additions, 1 division; 8N + 4 bytes.
      'shape=(4096, 4096)': { elements: { predictions: 16777216, targets: 16777216, output: 1 }, flops: 50331648, bytes: { float32: 134217732 } },
      // N = 32^5 = 2^25.
      'shape=(32, 32, 32, 32, 32)': { flops: 100663296, bytes: { float32: 268435460 } },
    },
  },
  "has Tensara's tolerance rtol 5e-5, atol 1e-4, inputs in [-1, 1] and random 2-D shapes": {
    float32: { rtol: 5e-5, atol: 1e-4 },
    ranges: { shape0: [1, 2000], shape1: [1, 2000] },
    also: () => expect(mseLoss.inputRange).toEqual([-1, 1]),
  },
})

describeProblem(huberLoss, {
  "has Tensara's signature (predictions, targets, output, n)": {
    signature: [
      ['predictions', 'input', undefined],
      ['targets', 'input', undefined],
      ['output', 'output', undefined],
      ['n', 'scalar', 'size_t'],
    ],
    prototypes: { float32: PAIRWISE_PROTOTYPE },
  },
  "has Tensara's four sizes, 1 Mi … 64 Mi": {
    cases: PAIRWISE_CASES,
    params: [{ n: 1048576 }, { n: 4194304 }, { n: 16777216 }, { n: 67108864 }],
  },
  "counts Tensara's 5 FLOPs per element and moves two inputs in and one output out": {
    counts: { 'N=4194304': { elements: { predictions: 4194304, targets: 4194304, output: 4194304 }, flops: 20971520, bytes: { float32: 50331648 } } },
  },
  "has Tensara's tolerance rtol 2e-4, atol 1e-4 and inputs in [-1, 1]": {
    float32: { rtol: 2e-4, atol: 1e-4 },
    ranges: { n: [1, 4_000_000] },
    also: () => expect(huberLoss.inputRange).toEqual([-1, 1]),
  },
})

describeProblem(hingeLoss, {
  "has Tensara's signature (predictions, targets, output, n) and four sizes": {
    prototypes: { float32: PAIRWISE_PROTOTYPE },
    cases: PAIRWISE_CASES,
    also: () => expect(signatureOf(hingeLoss)).toEqual(signatureOf(huberLoss)),
  },
  'counts 3 FLOPs per element (product, 1 −, max)': {
    counts: { 'N=1048576': { flops: 3145728, bytes: { float32: 12582912 } } },
  },
  "has Tensara's tolerance rtol 1e-4, atol 1e-4 and inputs in [-1, 1]": {
    float32: { rtol: 1e-4, atol: 1e-4 },
    also: () => expect(hingeLoss.inputRange).toEqual([-1, 1]),
  },
})

describeProblem(klLoss, {
  "has Tensara's signature (predictions, targets, output, n) and its four sizes (not the sparse-target case)": {
    prototypes: { float32: PAIRWISE_PROTOTYPE },
    cases: PAIRWISE_CASES,
    also: () => expect(signatureOf(klLoss)).toEqual(signatureOf(huberLoss)),
  },
  "counts Tensara's 7 FLOPs per element": {
    counts: { 'N=67108864': { flops: 469762048, bytes: { float32: 805306368 } } },
  },
  "has Tensara's tolerance rtol 1e-5, atol 1e-5 and positive inputs, in [0, 1]": {
    float32: { rtol: 1e-5, atol: 1e-5 },
    also: () => expect(klLoss.inputRange).toEqual([0, 1]),
  },
})

describeProblem(cosineSimilarity, {
  "has Tensara's signature (predictions, targets, output, n, d)": {
    signature: [
      ['predictions', 'input', undefined],
      ['targets', 'input', undefined],
      ['output', 'output', undefined],
      ['n', 'scalar', 'size_t'],
      ['d', 'scalar', 'size_t'],
    ],
    prototypes: { float32: 'void solution(const float* predictions, const float* targets, float* output, size_t n, size_t d)' },
  },
  "has Tensara's four row counts, D = 4096": {
    cases: ['N=4096, D=4096', 'N=8192, D=4096', 'N=10240, D=4096', 'N=16384, D=4096'],
    params: [
      { n: 4096, d: 4096 },
      { n: 8192, d: 4096 },
      { n: 10240, d: 4096 },
      { n: 16384, d: 4096 },
    ],
  },
  "counts Tensara's N(5D + 3) FLOPs, reads both N×D matrices and writes N floats": {
    counts: {
      // 8192 · 20483 FLOPs; 4(2 · 8192 · 4096 + 8192) bytes.
      'N=8192, D=4096': { elements: { predictions: 33554432, targets: 33554432, output: 8192 }, flops: 167796736, bytes: { float32: 268468224 } },
    },
  },
  "has Tensara's tolerance rtol 1e-4, atol 1e-4 and inputs in [-1, 1]": {
    float32: { rtol: 1e-4, atol: 1e-4 },
    ranges: { n: [1, 2048], d: [1, 2048] },
    also: () => expect(cosineSimilarity.inputRange).toEqual([-1, 1]),
  },
})

describeProblem(tripletMargin, {
  "has Tensara's signature (anchor, positive, negative, loss, B, E, margin)": {
    signature: [
      ['anchor', 'input', undefined],
      ['positive', 'input', undefined],
      ['negative', 'input', undefined],
      ['loss', 'output', undefined],
      ['B', 'scalar', 'size_t'],
      ['E', 'scalar', 'size_t'],
      ['margin', 'scalar', 'float'],
    ],
    prototypes: {
      float32: 'void solution(const float* anchor, const float* positive, const float* negative, float* loss, size_t B, size_t E, float margin)',
    },
  },
  "has Tensara's five shapes, margin 1 in every case": {
    cases: [
      'batch=128, embedding_dim=4096',
      'batch=256, embedding_dim=8192',
      'batch=256, embedding_dim=16384',
      'batch=512, embedding_dim=8192',
      'batch=1024, embedding_dim=1024',
    ],
    also: () => expect(tripletMargin.cases('float32').map((c) => c.params.margin)).toEqual([1, 1, 1, 1, 1]),
  },
  "counts Tensara's FLOPs and reads the three B×E matrices and writes one float": {
    counts: {
      // 2 · 128 · (3 · 4096 + 4) + 4 · 128 − 1; 4(3 · 128 · 4096 + 1) bytes.
      'batch=128, embedding_dim=4096': {
        elements: { anchor: 524288, positive: 524288, negative: 524288, loss: 1 },
        flops: 3147263,
        bytes: { float32: 6291460 },
      },
    },
  },
  "has Tensara's tolerance rtol 6e-4, atol 6e-4 and inputs in [-1, 1]": {
    float32: { rtol: 6e-4, atol: 6e-4 },
    ranges: { B: [1, 1024], E: [1, 2048] },
    also: () => expect(tripletMargin.inputRange).toEqual([-1, 1]),
  },
})

it('exports every loss problem from the catalogue', async () => {
  const problems = await import('../../problems/index.js')
  const exported = [problems.mseLoss, problems.huberLoss, problems.klLoss, problems.hingeLoss, problems.cosineSimilarity, problems.tripletMargin]
  const defined = [mseLoss, huberLoss, klLoss, hingeLoss, cosineSimilarity, tripletMargin]
  exported.forEach((problem, i) => expect(problem).toBe(defined[i]))
})
