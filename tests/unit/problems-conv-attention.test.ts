// The convolution and attention family: conv-1d, conv-2d, conv-square-3d, conv2d-relu-hardswish,
// scaled-dot-attention. Tensara's signatures and cases, element, FLOP and byte counts worked out by hand, tolerances, input ranges, shape spaces and references.
import { describe, expect, it } from 'vitest'
import { conv1d } from '../../problems/conv-1d/index.js'
import { conv2d } from '../../problems/conv-2d/index.js'
import { convSquare3d } from '../../problems/conv-square-3d/index.js'
import { conv2dReluHardswish } from '../../problems/conv2d-relu-hardswish/index.js'
import { scaledDotAttention } from '../../problems/scaled-dot-attention/index.js'
import { toleranceFor } from '../../src/spec/problem.js'
import { cPrototype } from '../../src/spec/signature.js'
import { caseNamed, describeFloat32Family, expectCases, expectCounts } from '../helpers/problem-tests.js'

describeFloat32Family([
  { problem: conv1d, reference: 'conv-1d.cu' },
  { problem: conv2d, reference: 'conv-2d.cu' },
  { problem: convSquare3d, reference: 'conv-square-3d.cu' },
  { problem: conv2dReluHardswish, reference: 'conv2d-relu-hardswish.cu' },
  { problem: scaledDotAttention, reference: 'scaled-dot-attention.cu' },
])

describe('conv-1d', () => {
  it("has Tensara's signature: signal, filter, output, then N and K", () => {
    expect(conv1d.signature.map((p) => [p.name, p.kind])).toEqual([
      ['A', 'input'],
      ['B', 'input'],
      ['C', 'output'],
      ['N', 'scalar'],
      ['K', 'scalar'],
    ])
    expect(cPrototype(conv1d.signature, 'float32')).toBe('void solution(const float* A, const float* B, float* C, size_t N, size_t K)')
  })

  it("has Tensara's four cases, all with an 8191-tap filter", () => {
    expectCases(
      conv1d,
      ['N=65536, K=8191', 'N=32768, K=8191', 'N=131072, K=8191', 'N=524288, K=8191'],
      [
        { N: 65536, K: 8191 },
        { N: 32768, K: 8191 },
        { N: 131072, K: 8191 },
        { N: 524288, K: 8191 },
      ],
    )
  })

  it('counts N·(2K − 1) FLOPs and 4·(2N + K) bytes', () => {
    expectCounts(conv1d, 'N=65536, K=8191', { elements: { A: 65536, B: 8191, C: 65536 }, flops: 1_073_545_216, bytes: { float32: 557_052 } })
    expectCounts(conv1d, 'N=524288, K=8191', { flops: 8_588_361_728, bytes: { float32: 4_227_068 } })
  })

  it("has Tensara's tolerance and inputs from [-1, 1]", () => {
    expect(toleranceFor(conv1d, 'float32')).toEqual({ rtol: 2e-4, atol: 5e-3 })
    expect(conv1d.inputRange).toEqual([-1, 1])
  })

  it('draws random shapes only with an odd filter shorter than the signal', () => {
    const shapes = conv1d.shapes!
    expect(shapes.ranges).toEqual({ N: [2, 20000], K: [1, 2047] })
    expect(shapes.valid!({ N: 2, K: 1 })).toBe(true)
    expect(shapes.valid!({ N: 1000, K: 999 })).toBe(true)
    expect(shapes.valid!({ N: 1000, K: 998 })).toBe(false)
    expect(shapes.valid!({ N: 999, K: 999 })).toBe(false)
    expect(shapes.valid!({ N: 3, K: 5 })).toBe(false)
  })
})

describe('conv-2d', () => {
  it("has Tensara's signature: image, filter, output, then H, W, Kh and Kw", () => {
    expect(cPrototype(conv2d.signature, 'float32')).toBe(
      'void solution(const float* A, const float* B, float* C, size_t H, size_t W, size_t Kh, size_t Kw)',
    )
  })

  it("has Tensara's six square cases with square odd filters", () => {
    expectCases(conv2d, [
      'H=4096, W=4096, Kh=9, Kw=9',
      'H=8192, W=8192, Kh=11, Kw=11',
      'H=16384, W=16384, Kh=13, Kw=13',
      'H=1024, W=1024, Kh=31, Kw=31',
      'H=2048, W=2048, Kh=63, Kw=63',
      'H=4096, W=4096, Kh=127, Kw=127',
    ])
    expect(caseNamed(conv2d, 'H=2048, W=2048, Kh=63, Kw=63').params).toEqual({ H: 2048, W: 2048, Kh: 63, Kw: 63 })
  })

  it('counts 2·H·W·Kh·Kw FLOPs and 4·(2·H·W + Kh·Kw) bytes', () => {
    expectCounts(conv2d, 'H=4096, W=4096, Kh=9, Kw=9', {
      elements: { A: 16_777_216, B: 81, C: 16_777_216 },
      flops: 2_717_908_992,
      bytes: { float32: 134_218_052 },
    })
    expectCounts(conv2d, 'H=4096, W=4096, Kh=127, Kw=127', { flops: 541_199_433_728, bytes: { float32: 134_282_244 } })
    expect(conv2d.elements(caseNamed(conv2d, 'H=16384, W=16384, Kh=13, Kw=13')).A).toBe(268_435_456)
  })

  it("has Tensara's tolerance and inputs from [-1, 1]", () => {
    expect(toleranceFor(conv2d, 'float32')).toEqual({ rtol: 2e-4, atol: 1e-3 })
    expect(conv2d.inputRange).toEqual([-1, 1])
  })

  it('draws random shapes only with odd filter sides smaller than the image', () => {
    const valid = conv2d.shapes!.valid!
    expect(conv2d.shapes!.ranges).toEqual({ H: [2, 300], W: [2, 300], Kh: [1, 31], Kw: [1, 31] })
    expect(valid({ H: 2, W: 2, Kh: 1, Kw: 1 })).toBe(true)
    expect(valid({ H: 40, W: 7, Kh: 31, Kw: 5 })).toBe(true)
    expect(valid({ H: 40, W: 7, Kh: 31, Kw: 4 })).toBe(false)
    expect(valid({ H: 40, W: 7, Kh: 30, Kw: 5 })).toBe(false)
    expect(valid({ H: 31, W: 7, Kh: 31, Kw: 5 })).toBe(false)
    expect(valid({ H: 40, W: 5, Kh: 31, Kw: 5 })).toBe(false)
  })
})

describe('conv-square-3d', () => {
  it("has Tensara's signature: volume, filter, output, then size and K", () => {
    expect(convSquare3d.signature.map((p) => [p.name, p.kind])).toEqual([
      ['A', 'input'],
      ['B', 'input'],
      ['C', 'output'],
      ['size', 'scalar'],
      ['K', 'scalar'],
    ])
    expect(cPrototype(convSquare3d.signature, 'float32')).toBe('void solution(const float* A, const float* B, float* C, size_t size, size_t K)')
  })

  it("has Tensara's six cubic cases, named as Tensara names them", () => {
    expectCases(
      convSquare3d,
      ['D=H=W=64, K=3', 'D=H=W=32, K=9', 'D=H=W=96, K=11', 'D=H=W=128, K=5', 'D=H=W=256, K=7', 'D=H=W=512, K=9'],
      [
        { size: 64, K: 3 },
        { size: 32, K: 9 },
        { size: 96, K: 11 },
        { size: 128, K: 5 },
        { size: 256, K: 7 },
        { size: 512, K: 9 },
      ],
    )
  })

  it('counts 2·size³·K³ FLOPs and 4·(2·size³ + K³) bytes', () => {
    expectCounts(convSquare3d, 'D=H=W=64, K=3', { elements: { A: 262_144, B: 27, C: 262_144 }, flops: 14_155_776, bytes: { float32: 2_097_260 } })
    expectCounts(convSquare3d, 'D=H=W=32, K=9', { elements: { A: 32_768, B: 729, C: 32_768 }, flops: 47_775_744, bytes: { float32: 265_060 } })
    expectCounts(convSquare3d, 'D=H=W=512, K=9', { flops: 195_689_447_424, bytes: { float32: 1_073_744_740 } })
  })

  it("has Tensara's own tolerance and inputs from [-1, 1], as Tensara draws them", () => {
    expect(toleranceFor(convSquare3d, 'float32')).toEqual({ rtol: 1e-3, atol: 1e-2 })
    expect(convSquare3d.inputRange).toEqual([-1, 1])
  })

  it('draws random shapes only with an odd filter smaller than the volume', () => {
    const valid = convSquare3d.shapes!.valid!
    expect(convSquare3d.shapes!.ranges).toEqual({ size: [2, 64], K: [1, 15] })
    expect(valid({ size: 2, K: 1 })).toBe(true)
    expect(valid({ size: 16, K: 15 })).toBe(true)
    expect(valid({ size: 15, K: 15 })).toBe(false)
    expect(valid({ size: 64, K: 4 })).toBe(false)
    expect(valid({ size: 3, K: 5 })).toBe(false)
  })
})

describe('conv2d-relu-hardswish', () => {
  it("has Tensara's signature: image, kernel, output, then H, W, Kh and Kw", () => {
    expect(cPrototype(conv2dReluHardswish.signature, 'float32')).toBe(
      'void solution(const float* image, const float* kernel, float* output, size_t H, size_t W, size_t Kh, size_t Kw)',
    )
  })

  it("has Tensara's six square cases with square odd kernels from 3² to 13²", () => {
    expectCases(conv2dReluHardswish, [
      'H=512, W=512, Kh=3, Kw=3',
      'H=1024, W=1024, Kh=5, Kw=5',
      'H=2048, W=2048, Kh=7, Kw=7',
      'H=512, W=512, Kh=9, Kw=9',
      'H=1024, W=1024, Kh=11, Kw=11',
      'H=2048, W=2048, Kh=13, Kw=13',
    ])
    expect(caseNamed(conv2dReluHardswish, 'H=1024, W=1024, Kh=11, Kw=11').params).toEqual({ H: 1024, W: 1024, Kh: 11, Kw: 11 })
  })

  it('counts 2·H·W·Kh·Kw + 5·H·W FLOPs and 4·(2·H·W + Kh·Kw) bytes', () => {
    expectCounts(conv2dReluHardswish, 'H=512, W=512, Kh=3, Kw=3', {
      elements: { image: 262_144, kernel: 9, output: 262_144 },
      flops: 6_029_312,
      bytes: { float32: 2_097_188 },
    })
    expectCounts(conv2dReluHardswish, 'H=1024, W=1024, Kh=5, Kw=5', { flops: 57_671_680, bytes: { float32: 8_388_708 } })
    expectCounts(conv2dReluHardswish, 'H=2048, W=2048, Kh=13, Kw=13', { flops: 1_438_646_272, bytes: { float32: 33_555_108 } })
  })

  it("has Tensara's own tolerance and inputs from [-1, 1], as Tensara draws them", () => {
    expect(toleranceFor(conv2dReluHardswish, 'float32')).toEqual({ rtol: 9e-5, atol: 2e-4 })
    expect(conv2dReluHardswish.inputRange).toEqual([-1, 1])
  })

  it("draws conv-2d's shapes with kernels up to 15×15", () => {
    const valid = conv2dReluHardswish.shapes!.valid!
    expect(conv2dReluHardswish.shapes!.ranges).toEqual({ H: [2, 300], W: [2, 300], Kh: [1, 15], Kw: [1, 15] })
    expect(valid({ H: 2, W: 2, Kh: 1, Kw: 1 })).toBe(true)
    expect(valid({ H: 16, W: 9, Kh: 15, Kw: 3 })).toBe(true)
    expect(valid({ H: 16, W: 9, Kh: 15, Kw: 2 })).toBe(false)
    expect(valid({ H: 15, W: 9, Kh: 15, Kw: 3 })).toBe(false)
  })
})

describe('scaled-dot-attention', () => {
  it("has Tensara's signature: Q, K, V, output, then B, H, S, E", () => {
    expect(cPrototype(scaledDotAttention.signature, 'float32')).toBe(
      'void solution(const float* Q, const float* K, const float* V, float* output, size_t B, size_t H, size_t S, size_t E)',
    )
  })

  it("has Tensara's six cases, named as Tensara names them", () => {
    expectCases(scaledDotAttention, [
      'Batch=8, Heads=16, Seq_len=512, Embed_dim=64',
      'Batch=16, Heads=32, Seq_len=256, Embed_dim=64',
      'Batch=4, Heads=32, Seq_len=1024, Embed_dim=32',
      'Batch=32, Heads=8, Seq_len=512, Embed_dim=128',
      'Batch=8, Heads=16, Seq_len=512, Embed_dim=256',
      'Batch=8, Heads=16, Seq_len=2048, Embed_dim=64',
    ])
    expect(caseNamed(scaledDotAttention, 'Batch=32, Heads=8, Seq_len=512, Embed_dim=128').params).toEqual({ B: 32, H: 8, S: 512, E: 128 })
  })

  it('counts 4·B·H·S²·E + 5·B·H·S² FLOPs and reads Q, K, V and writes output once', () => {
    expectCounts(scaledDotAttention, 'Batch=8, Heads=16, Seq_len=512, Embed_dim=64', {
      elements: { Q: 4_194_304, K: 4_194_304, V: 4_194_304, output: 4_194_304 },
      flops: 8_757_706_752,
      bytes: { float32: 67_108_864 },
    })
    expectCounts(scaledDotAttention, 'Batch=8, Heads=16, Seq_len=2048, Embed_dim=64', { flops: 140_123_308_032, bytes: { float32: 268_435_456 } })
  })

  it("has Tensara's tolerance and inputs from [-2, 2]", () => {
    expect(toleranceFor(scaledDotAttention, 'float32')).toEqual({ rtol: 2e-2, atol: 5e-3 })
    expect(scaledDotAttention.inputRange).toEqual([-2, 2])
  })

  it('draws every size, head sizes up to 256, with no constraint between them', () => {
    expect(scaledDotAttention.shapes).toEqual({ ranges: { B: [1, 3], H: [1, 4], S: [1, 600], E: [1, 256] } })
  })
})
