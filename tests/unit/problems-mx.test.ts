// The block-scaled formats family: mxfp8-, mxfp4-, nvfp4-dequantize, -gemm and -quantize. Signatures, Tensara's cases, element,
// FLOP and byte counts worked out by hand, tolerances, references, the byte ranges inputs are drawn from, random shapes,
// and the decoding the quantizations are judged by.
import { describe, expect, it } from 'vitest'
import { mxfp4Dequantize } from '../../problems/mxfp4-dequantize/index.js'
import { mxfp4Gemm } from '../../problems/mxfp4-gemm/index.js'
import { mxfp8Dequantize } from '../../problems/mxfp8-dequantize/index.js'
import { mxfp8Gemm } from '../../problems/mxfp8-gemm/index.js'
import { nvfp4Dequantize } from '../../problems/nvfp4-dequantize/index.js'
import { nvfp4Gemm } from '../../problems/nvfp4-gemm/index.js'
import { mxfp8Quantize } from '../../problems/mxfp8-quantize/index.js'
import { mxfp4Quantize } from '../../problems/mxfp4-quantize/index.js'
import { nvfp4Quantize } from '../../problems/nvfp4-quantize/index.js'
import type { Problem } from '../../src/spec/problem.js'
import { cDecodePrototype, cPrototype } from '../../src/spec/signature.js'
import { describeFloat32Family, describeProblem, expectCudaReference } from '../helpers/problem-tests.js'

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

describeFloat32Family([mxfp8Gemm, mxfp4Gemm].map((problem) => ({ problem, reference: `${problem.name}.cu` })), (problem) => {
  it("has Tensara's signature (q_a, scale_a, q_b, scale_b, c, m, n, k)", () => {
    expect(cPrototype(problem.signature, 'float32')).toBe(
      'void solution(const uint8_t* q_a, const uint8_t* scale_a, const uint8_t* q_b, const uint8_t* scale_b, float* c, size_t m, size_t n, size_t k)',
    )
  })

  it("has Tensara's five cases as it runs them: a name's middle number is k (its rows are unpacked as m, k, n)", () => {
    expect(problem.cases('float32').map((c) => c.name)).toEqual([
      '1024 x 1024 x 1024', '2048 x 1024 x 2048', '4096 x 2048 x 4096', '4096 x 4096 x 4096', '8192 x 4096 x 8192',
    ])
    expect(problem.cases('float32')[1]!.params).toEqual({ m: 2048, n: 2048, k: 1024 })
    expect(problem.cases('float32')[4]!.params).toEqual({ m: 8192, n: 8192, k: 4096 })
  })

  it("counts Tensara's 2·m·n·k FLOPs and has its tolerance rtol 2e-2, atol 5e-2", () => {
    expect(problem.flops(problem.cases('float32')[1]!)).toBe(2 * 2048 * 2048 * 1024)
    expect(problem.tolerance.float32).toEqual({ rtol: 2e-2, atol: 5e-2 })
  })

  it('lays the scales out swizzled: m × k/32 padded to whole tiles of 128 rows × 4 blocks', () => {
    // 2048 × 1024: 2048 rows × 32 blocks, whole tiles. 130 × 96: 256 padded rows × 4 padded blocks (3 used).
    expect(problem.elements(problem.cases('float32')[1]!)).toMatchObject({ scale_a: 65536, scale_b: 65536, c: 4194304 })
    expect(problem.elements({ name: 'odd', params: { m: 130, n: 32, k: 96 } })).toMatchObject({ scale_a: 1024, scale_b: 512 })
  })

  it('draws scales from 112..127 and shapes with n and k in whole blocks of 32 (Tensara rejects others)', () => {
    expect(rangeOf(problem, 'scale_a')).toMatchObject({ range: [112, 128] })
    expect(rangeOf(problem, 'scale_b')).toMatchObject({ range: [112, 128] })
    expect(problem.shapes?.ranges).toEqual({ m: [1, 512], n: [32, 512], k: [32, 512] })
    expect(problem.shapes?.valid?.({ m: 3, n: 64, k: 96 })).toBe(true)
    expect(problem.shapes?.valid?.({ m: 3, n: 48, k: 96 })).toBe(false)
  })
})

describeProblem(mxfp8Gemm, {
  'reads one byte per element of A and B': {
    // 1024³: 2^20 bytes each of q_a and q_b, 2^15 scales each (whole tiles), 4 · 2^20 bytes of C.
    counts: { '1024 x 1024 x 1024': { elements: { q_a: 1048576, scale_a: 32768, q_b: 1048576, scale_b: 32768, c: 1048576 }, flops: 2147483648, bytes: { float32: 6356992 } } },
    also: () => expect(rangeOf(mxfp8Gemm, 'q_a')).toMatchObject({ range: [0, 0x7f] }),
  },
})

describeProblem(mxfp4Gemm, {
  'reads half a byte per element of A and B': {
    // 1024³: 2^19 bytes each of q_a and q_b, 2^15 scales each, 4 · 2^20 bytes of C.
    counts: { '1024 x 1024 x 1024': { elements: { q_a: 524288, scale_a: 32768, q_b: 524288, scale_b: 32768, c: 1048576 }, flops: 2147483648, bytes: { float32: 5308416 } } },
    also: () => expect(rangeOf(mxfp4Gemm, 'q_b')).toMatchObject({ range: [0, 256] }),
  },
})

describeProblem(nvfp4Gemm, {
  "has Tensara's signature, float8 scales as uint8_t and a half C": {
    prototypes: {
      float16:
        'void solution(const uint8_t* q_a, const uint8_t* scale_a, float sf_g_a, const uint8_t* q_b, const uint8_t* scale_b, float sf_g_b, __half* c, size_t m, size_t n, size_t k)',
    },
    also: () => {
      expect(nvfp4Gemm.dtypes).toEqual(['float16'])
      expect(nvfp4Gemm.description).not.toBe('')
    },
  },
  "has Tensara's five cases m × n × k, unpacked as written, with both global factors 2688": {
    also: () => {
      expect(nvfp4Gemm.cases('float16').map((c) => c.name)).toEqual([
        '1024 x 1024 x 1024', '2048 x 1024 x 2048', '4096 x 2048 x 4096', '4096 x 4096 x 4096', '8192 x 4096 x 8192',
      ])
      expect(nvfp4Gemm.cases('float16')[1]!.params).toEqual({ m: 2048, n: 1024, k: 2048, sf_g_a: 2688, sf_g_b: 2688 })
    },
  },
  "counts Tensara's 2·m·n·k FLOPs, half a byte per element, scales per 16 in whole 128×4 tiles, and a half C": {
    also: () => {
      const c = nvfp4Gemm.cases('float16')[0]!
      // 1024³: 2^19 bytes each of q_a and q_b, 1024 × 64 scales each, 2 · 2^20 bytes of C.
      expect(nvfp4Gemm.elements(c)).toEqual({ q_a: 524288, scale_a: 65536, q_b: 524288, scale_b: 65536, c: 1048576 })
      expect(nvfp4Gemm.flops(c)).toBe(2147483648)
      expect(nvfp4Gemm.bytes(c, 'float16')).toBe(2 * 524288 + 2 * 65536 + 2 * 1048576)
    },
  },
  "has Tensara's tolerance rtol 2e-2, atol 5e-2, elements from every byte and scales from 0x00..0x7E": {
    also: () => {
      expect(nvfp4Gemm.tolerance.float16).toEqual({ rtol: 2e-2, atol: 5e-2 })
      expect(rangeOf(nvfp4Gemm, 'q_a')).toMatchObject({ range: [0, 256] })
      expect(rangeOf(nvfp4Gemm, 'scale_b')).toMatchObject({ range: [0, 0x7f] })
    },
  },
  'draws k in whole blocks of 16': {
    ranges: { m: [1, 512], n: [1, 512], k: [16, 512] },
  },
})

const quantizations = [mxfp8Quantize, mxfp4Quantize, nvfp4Quantize] as Problem[]

describe.each(quantizations)('$name', (problem) => {
  const dtype = problem.dtypes[0]!

  it("has Tensara's four shapes, 1024² to 8192×4096, uniform [-1, 1] inputs and a description", () => {
    expect(problem.cases(dtype).map((c) => c.name)).toEqual(['1024 x 1024', '2048 x 2048', '4096 x 8192', '8192 x 4096'])
    expect(problem.cases(dtype)[2]!.params).toMatchObject({ m: 4096, k: 8192 })
    expect(problem.inputRange).toEqual([-1, 1])
    expect(problem.description).not.toBe('')
  })

  it("is judged as Tensara judges it: both sides dequantized to float32, compared with rtol 1e-3, atol 1e-3", () => {
    expect(problem.tolerance[dtype]).toEqual({ rtol: 1e-3, atol: 1e-3 })
    expect(problem.decode).toMatchObject({ entry: 'decode', name: 'dequantized', dtype: 'float32' })
    expect(problem.decode!.elements(problem.cases(dtype)[3]!)).toBe(8192 * 4096)
    expectCudaReference(problem, `${problem.name}.cu`)
  })

  it('counts two FLOPs per element (Tensara counts none): its part of the block maximum and its scaling', () => {
    expect(problem.flops(problem.cases(dtype)[0]!)).toBe(2 * 1048576)
  })
})

describeProblem(mxfp8Quantize, {
  "has Tensara's signature (a, q, scale, m, k), float32 in, uint8_t bytes out, and decodes both into dequantized": {
    prototypes: { float32: 'void solution(const float* a, uint8_t* q, uint8_t* scale, size_t m, size_t k)' },
    also: () =>
      expect(cDecodePrototype(mxfp8Quantize.signature, 'float32', 'decode', mxfp8Quantize.decode!)).toBe(
        'void decode(const float* a, const uint8_t* q, const uint8_t* scale, size_t m, size_t k, float* dequantized)',
      ),
  },
  'counts a float in, a byte of q and 1/32 scale byte out per element': {
    counts: {
      // 2^20 elements: 4 · 2^20 bytes of a, 2^20 of q, 2^15 scales: 4194304 + 1048576 + 32768.
      '1024 x 1024': { elements: { a: 1048576, q: 1048576, scale: 32768 }, bytes: { float32: 5275648 } },
      // 2^25 elements: 2^27 + 2^25 + 2^20 bytes.
      '8192 x 4096': { elements: { a: 33554432, q: 33554432, scale: 1048576 }, bytes: { float32: 168820736 } },
    },
  },
  'draws K in whole blocks of 32 (Tensara rejects any other K)': {
    ranges: { m: [1, 1024], k: [32, 1024] },
    also: () => {
      expect(mxfp8Quantize.shapes?.valid?.({ m: 3, k: 64 })).toBe(true)
      expect(mxfp8Quantize.shapes?.valid?.({ m: 3, k: 48 })).toBe(false)
    },
  },
})

describeProblem(mxfp4Quantize, {
  "has Tensara's signature (a, q, scale, m, k), float32 in, uint8_t bytes out": {
    prototypes: { float32: 'void solution(const float* a, uint8_t* q, uint8_t* scale, size_t m, size_t k)' },
  },
  'counts a float in, half a byte of q and 1/32 scale byte out per element': {
    counts: {
      // 2^20 elements: 4 · 2^20 bytes of a, 2^19 of q, 2^15 scales: 4194304 + 524288 + 32768.
      '1024 x 1024': { elements: { a: 1048576, q: 524288, scale: 32768 }, bytes: { float32: 4751360 } },
    },
  },
  'draws K in whole blocks of 32': {
    ranges: { m: [1, 1024], k: [32, 1024] },
  },
})

describeProblem(nvfp4Quantize, {
  "has Tensara's signature (a, sf_g, q, scale, m, k): half in, its float8 scales uint8_t as Tensara spells them in C": {
    prototypes: { float16: 'void solution(const __half* a, float sf_g, uint8_t* q, uint8_t* scale, size_t m, size_t k)' },
    also: () => {
      expect(nvfp4Quantize.dtypes).toEqual(['float16'])
      expect(cDecodePrototype(nvfp4Quantize.signature, 'float16', 'decode', nvfp4Quantize.decode!)).toBe(
        'void decode(const __half* a, float sf_g, const uint8_t* q, const uint8_t* scale, size_t m, size_t k, float* dequantized)',
      )
    },
  },
  'passes sf_g = 6 · 448 / 1 = 2688, the global factor of data whose largest magnitude is 1': {
    also: () => expect(nvfp4Quantize.cases('float16')[0]!.params).toEqual({ m: 1024, k: 1024, sf_g: 2688 }),
  },
  'counts a half in, half a byte of q per element and scales per 16 in whole 128×4 tiles': {
    also: () => {
      // 1024²: 2 · 2^20 bytes of a, 2^19 of q, 1024 × 64 scales: 2097152 + 524288 + 65536.
      const [first, , third] = nvfp4Quantize.cases('float16')
      expect(nvfp4Quantize.elements(first!)).toEqual({ a: 1048576, q: 524288, scale: 65536 })
      expect(nvfp4Quantize.bytes(first!, 'float16')).toBe(2686976)
      // 4096 × 8192: 2^26 + 2^24 bytes, 4096 × 512 scales.
      expect(nvfp4Quantize.bytes(third!, 'float16')).toBe(85983232)
      // 130 × 48: 256 padded rows × 4 padded blocks (3 used).
      expect(nvfp4Quantize.elements({ name: 'odd', params: { m: 130, k: 48, sf_g: 2688 } }).scale).toBe(1024)
    },
  },
  'draws K in whole blocks of 16': {
    ranges: { m: [1, 1024], k: [16, 1024] },
    also: () => expect(nvfp4Quantize.shapes?.valid?.({ m: 1, k: 24 })).toBe(false),
  },
})
