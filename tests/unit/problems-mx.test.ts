// The block-scaled formats family: mxfp8-dequantize, mxfp4-dequantize, nvfp4-dequantize. Signatures, Tensara's cases, element, FLOP and
// byte counts worked out by hand, tolerances, references, the byte ranges inputs are drawn from and random shapes.
import { describe, expect, it } from 'vitest'
import { mxfp4Dequantize } from '../../problems/mxfp4-dequantize/index.js'
import { mxfp8Dequantize } from '../../problems/mxfp8-dequantize/index.js'
import { nvfp4Dequantize } from '../../problems/nvfp4-dequantize/index.js'
import type { Problem } from '../../src/spec/problem.js'
import { describeFloat32Family, describeProblem } from '../helpers/problem-tests.js'

const rangeOf = (problem: Problem, name: string) => problem.signature.find((p) => p.name === name && p.kind === 'input')

const dequantizations = [mxfp8Dequantize, mxfp4Dequantize, nvfp4Dequantize]

describeFloat32Family(dequantizations.map((problem) => ({ problem, reference: `${problem.name}.cu` })), (problem) => {
  it("has Tensara's five shapes, 1024² to 4096×8192, and tolerance rtol 1e-3, atol 1e-3", () => {
    expect(problem.cases('float32').map((c) => c.name)).toEqual(['1024 x 1024', '2048 x 2048', '4096 x 4096', '8192 x 4096', '4096 x 8192'])
    expect(problem.cases('float32')[3]!.params).toMatchObject({ m: 8192, k: 4096 })
    expect(problem.tolerance.float32).toEqual({ rtol: 1e-3, atol: 1e-3 })
  })
})

describeFloat32Family([mxfp8Dequantize, mxfp4Dequantize].map((problem) => ({ problem, reference: `${problem.name}.cu` })), (problem) => {
  it('draws E8M0 scales from 112..135 (2^-15..2^8), finite whatever the element', () => {
    expect(rangeOf(problem, 'scale')).toEqual({ name: 'scale', kind: 'input', dtype: 'uint8', range: [112, 136] })
  })

  it('draws K in whole blocks of 32 (Tensara rejects any other K)', () => {
    expect(problem.shapes?.ranges).toEqual({ m: [1, 1024], k: [32, 1024] })
    expect(problem.shapes?.valid?.({ m: 3, k: 64 })).toBe(true)
    expect(problem.shapes?.valid?.({ m: 3, k: 48 })).toBe(false)
  })
})

describeProblem(mxfp8Dequantize, {
  "has Tensara's signature (q, scale, out, m, k) with uint8_t bytes": {
    prototypes: { float32: 'void solution(const uint8_t* q, const uint8_t* scale, float* out, size_t m, size_t k)' },
  },
  'counts one byte of q, 1/32 scale byte and one float out per element, and one FLOP per element': {
    counts: {
      // 2^20 elements: 2^20 bytes of q, 2^15 scales, 4 · 2^20 bytes out: 1048576 + 32768 + 4194304.
      '1024 x 1024': { elements: { q: 1048576, scale: 32768, out: 1048576 }, flops: 1048576, bytes: { float32: 5275648 } },
      // 2^25 elements: 2^25 + 2^20 + 2^27 bytes.
      '8192 x 4096': { elements: { q: 33554432, scale: 1048576, out: 33554432 }, flops: 33554432, bytes: { float32: 168820736 } },
    },
  },
  'draws q from the finite non-negative E4M3 codes 0x00..0x7E (0x7F is NaN)': {
    also: () => expect(rangeOf(mxfp8Dequantize, 'q')).toEqual({ name: 'q', kind: 'input', dtype: 'uint8', range: [0, 0x7f] }),
  },
})

describeProblem(mxfp4Dequantize, {
  "has Tensara's signature (q, scale, out, m, k) with uint8_t bytes": {
    prototypes: { float32: 'void solution(const uint8_t* q, const uint8_t* scale, float* out, size_t m, size_t k)' },
  },
  'counts half a byte of q, 1/32 scale byte and one float out per element, and one FLOP per element': {
    counts: {
      // 2^20 elements: 2^19 bytes of q, 2^15 scales, 4 · 2^20 bytes out: 524288 + 32768 + 4194304.
      '1024 x 1024': { elements: { q: 524288, scale: 32768, out: 1048576 }, flops: 1048576, bytes: { float32: 4751360 } },
      // 2^25 elements: 2^24 + 2^20 + 2^27 bytes.
      '4096 x 8192': { elements: { q: 16777216, scale: 1048576, out: 33554432 }, flops: 33554432, bytes: { float32: 152043520 } },
    },
  },
  'draws q from every byte (every pair of E2M1 codes is a value)': {
    also: () => expect(rangeOf(mxfp4Dequantize, 'q')).toEqual({ name: 'q', kind: 'input', dtype: 'uint8', range: [0, 256] }),
  },
})

describeProblem(nvfp4Dequantize, {
  "has Tensara's signature (q, scale, sf_g, out, m, k), its float8 scales uint8_t as Tensara spells them in C": {
    prototypes: { float32: 'void solution(const uint8_t* q, const uint8_t* scale, float sf_g, float* out, size_t m, size_t k)' },
  },
  'passes sf_g = 6 · 448 / 1 = 2688, the global factor of data whose largest magnitude is 1': {
    also: () => expect(nvfp4Dequantize.cases('float32')[0]!.params).toEqual({ m: 1024, k: 1024, sf_g: 2688 }),
  },
  'counts half a byte of q per element, scales padded to 128-row × 4-block tiles, and one FLOP per element': {
    counts: {
      // 2^20 elements: 2^19 bytes of q, 1024 × 64 scales (whole tiles), 4 · 2^20 bytes out: 524288 + 65536 + 4194304.
      '1024 x 1024': { elements: { q: 524288, scale: 65536, out: 1048576 }, flops: 1048576, bytes: { float32: 4784128 } },
    },
    also: () => {
      // 130 × 48: 256 padded rows × 4 padded blocks (3 used).
      expect(nvfp4Dequantize.elements({ name: 'odd', params: { m: 130, k: 48, sf_g: 2688 } }).scale).toBe(1024)
    },
  },
  'draws q from every byte and scales from the finite non-negative E4M3 codes 0x00..0x7E': {
    also: () => {
      expect(rangeOf(nvfp4Dequantize, 'q')).toMatchObject({ range: [0, 256] })
      expect(rangeOf(nvfp4Dequantize, 'scale')).toMatchObject({ range: [0, 0x7f] })
    },
  },
  'draws K in whole blocks of 16': {
    ranges: { m: [1, 1024], k: [16, 1024] },
    also: () => expect(nvfp4Dequantize.shapes?.valid?.({ m: 1, k: 48 })).toBe(true),
  },
})
