// Outputs judged by what they decode to (a problem's `decode`, DecodeSpec): the decode function's prototype, the
// checks defineProblem makes, the case plan that carries it to the device host, the memory it needs and the message
// a mismatch gets. What the GPU does with it is tests/gpu/problems.test.ts's (the quantizations' planted solutions).
import { describe, expect, it } from 'vitest'
import { caseBytes } from '../../src/engine/host/buffers.js'
import { describeBad, NAN_CAUSES } from '../../src/engine/host/verify.js'
import type { CasePlan, ReferencePlan, VerifiedOutput } from '../../src/shared/messages.js'
import { defineProblem, type DecodeSpec, type Problem } from '../../src/spec/problem.js'
import { cDecodePrototype, koffiDecodeParams, type ParamSpec } from '../../src/spec/signature.js'
import { casePlanner } from '../../src/vitest/case-plan.js'
import { resolveSpec } from '../../src/vitest/resolve-spec.js'

/** A toy quantization: n floats to n bytes and one scale per 32, decoded back to n floats. */
const signature: ParamSpec[] = [
  { name: 'a', kind: 'input' },
  { name: 'q', kind: 'output', dtype: 'uint8' },
  { name: 'scale', kind: 'output', dtype: 'uint8' },
  { name: 'n', kind: 'scalar', ctype: 'size_t' },
]
const decode: DecodeSpec = { entry: 'decode', name: 'dequantized', dtype: 'float32', elements: (c) => c.params.n! }

function toy(overrides: Partial<Parameters<typeof defineProblem>[0]> = {}): Problem {
  return defineProblem({
    name: 'toy-quantize',
    signature,
    dtypes: ['float32'],
    cases: () => [{ name: 'n = 1024', params: { n: 1024 } }],
    elements: ({ params: { n } }) => ({ a: n!, q: n!, scale: n! / 32 }),
    flops: ({ params: { n } }) => n!,
    tolerance: { float32: { rtol: 1e-3, atol: 1e-3 } },
    reference: { kind: 'cuda', file: '/abs/toy-quantize.cu' },
    decode,
    ...overrides,
  }) as Problem
}

const library = (entry: string) => ({ library: `/${entry}.so`, source: '/abs/toy-quantize.cu', entry, params: [] })

function plan(problem: Problem, reference: ReferencePlan): CasePlan {
  const settings = { devices: [0], cacheDir: '/nonexistent', measure: {} }
  const spec = resolveSpec({ problem, solution: 'x.cu' }, settings, 'test')
  return casePlanner('test', spec, library('solution'), reference)(spec.cases[0]!, 'verify', spec.options)
}

describe('the decode function', () => {
  it("takes the problem's arguments, outputs read-only, then the decoded buffer", () => {
    expect(cDecodePrototype(signature, 'float32', 'decode', decode)).toBe(
      'void decode(const float* a, const uint8_t* q, const uint8_t* scale, size_t n, float* dequantized)',
    )
    expect(koffiDecodeParams(signature)).toEqual(['void *', 'void *', 'void *', 'size_t', 'void *'])
  })

  it('is defined only with a CUDA reference, under a name of its own, its buffer named as a C parameter', () => {
    expect(() => toy()).not.toThrow()
    expect(() => toy({ reference: { kind: 'gemm' } })).toThrow("problem 'toy-quantize': decode 'decode' lives in the reference's .cu file, but the reference is gemm")
    expect(() => toy({ decode: { ...decode, entry: 'reference' } })).toThrow("decode 'reference' has the reference's own name")
    expect(() => toy({ decode: { ...decode, name: 'q' } })).toThrow("parameter 'q' appears twice")
    expect(() => toy({ decode: { ...decode, name: 'de-quantized' } })).toThrow("parameter name 'de-quantized' is not a C identifier")
  })
})

describe('the case plan', () => {
  it('carries the decode function and the decoded element count of the case', () => {
    const reference: ReferencePlan = { kind: 'library', target: library('reference'), decode: library('decode') }
    expect(plan(toy(), reference).decode).toEqual({ target: library('decode'), name: 'dequantized', dtype: 'float32', count: 1024 })
  })

  it('has none for a problem compared element by element', () => {
    expect(plan(toy({ decode: undefined }), { kind: 'library', target: library('reference') })).not.toHaveProperty('decode')
  })

  it('refuses a reference compiled without the decode function', () => {
    expect(() => plan(toy(), { kind: 'library', target: library('reference') })).toThrow(
      "'toy-quantize' decodes its outputs, but its reference has no decode function",
    )
  })

  it('counts both sides\' decoded buffers in the memory the case needs', () => {
    const decoded = plan(toy(), { kind: 'library', target: library('reference'), decode: library('decode') })
    // 1024 floats in; q and scale three times each (1024 + 32 bytes); two decoded buffers of 1024 floats.
    expect(caseBytes(decoded)).toBe(4096 + 3 * 1056 + 2 * 4096)
    expect(caseBytes({ ...decoded, decode: undefined })).toBe(4096 + 3 * 1056)
  })
})

describe('a mismatch', () => {
  const bad: VerifiedOutput = {
    name: 'dequantized',
    elements: 1024,
    comparison: { badCount: 40, nanCount: 32, firstBad: 64, expectedAtFirstBad: 0.5, gotAtFirstBad: 0.25, maxAbsError: 0.25 },
  }

  it('names the decoded buffer and the outputs it was decoded from, where, and by how much', () => {
    const decoded = plan(toy(), { kind: 'library', target: library('reference'), decode: library('decode') })
    const [line] = describeBad(decoded, [bad])
    expect(line).toMatch(
      /^dequantized \(decoded from q, scale\): 40 of 1024 elements out of tolerance \(rtol 0\.001, atol 0\.001\), 32 NaN \(decoded from codes that are NaN, such as the bytes 0xFF every uint8 output starts as \(never written\)/,
    )
    expect(line).toMatch(/; first bad index 64: expected 0\.5, got 0\.25; max abs error 0\.25 \(NaN excluded\)$/)
  })

  it('keeps the element-by-element message of an output compared as it is', () => {
    const plain = plan(toy({ decode: undefined }), { kind: 'library', target: library('reference') })
    expect(describeBad(plain, [{ ...bad, name: 'q' }])[0]).toBe(
      `q: 40 of 1024 elements out of tolerance (rtol 0.001, atol 0.001), 32 NaN (${NAN_CAUSES}); first bad index 64: expected 0.5, got 0.25; max abs error 0.25 (NaN excluded)`,
    )
  })
})
