// The finite-field family: vector-multiply-ff and poly-multiply-ff over F_(2^31 - 1), ecc-point-negation over
// F_(2^61 - 1). Signatures, Tensara's cases, element, FLOP and byte counts worked out by hand, exact verification and
// inputs drawn below the modulus.
import { describe, expect, it } from 'vitest'
import { eccPointNegation } from '../../problems/ecc-point-negation/index.js'
import { MERSENNE_31, MERSENNE_61, powerOfTwoCases } from '../../problems/finite-field-common/field.js'
import { polyMultiplyFf } from '../../problems/poly-multiply-ff/index.js'
import { vectorMultiplyFf } from '../../problems/vector-multiply-ff/index.js'
import { describeProblem, expectCudaReference } from '../helpers/problem-tests.js'

const UINT32_PROTOTYPE = 'void solution(const uint32_t* d_input1, const uint32_t* d_input2, uint32_t* d_output, size_t n)'

describe.each([vectorMultiplyFf, polyMultiplyFf])('$name', (problem) => {
  it('is uint32 only, compared exactly, as Tensara compares with torch.equal', () => {
    expect(problem.dtypes).toEqual(['uint32'])
    expect(problem.tolerance).toEqual({ uint32: { rtol: 0, atol: 0 } })
    expect(problem.description).not.toBe('')
  })

  it('draws every input from the integers 0 … p - 1 for p = 2^31 - 1, as torch.randint(0, P) does', () => {
    expect(MERSENNE_31).toBe(2147483647)
    // The harness stores floor(lo + (hi - lo)·u) with u < 1 for an integer dtype: hi itself is never drawn.
    expect(problem.inputRange).toEqual([0, 2147483647])
  })

  it('has a CUDA reference at an absolute path that exists', () => {
    expectCudaReference(problem, `${problem.name}.cu`)
  })
})

describe('powerOfTwoCases', () => {
  it("names each case 'n = 2^k', as Tensara does", () => {
    expect(powerOfTwoCases([6, 20])).toEqual([
      { name: 'n = 2^6', params: { n: 64 } },
      { name: 'n = 2^20', params: { n: 1048576 } },
    ])
  })
})

describeProblem(vectorMultiplyFf, {
  "has Tensara's signature (d_input1, d_input2, d_output, n) in uint32_t": {
    prototypes: { uint32: UINT32_PROTOTYPE },
  },
  "has Tensara's four sizes, n = 2^20, 2^22, 2^24, 2^25": {
    cases: ['n = 2^20', 'n = 2^22', 'n = 2^24', 'n = 2^25'],
    params: [{ n: 1048576 }, { n: 4194304 }, { n: 16777216 }, { n: 33554432 }],
  },
  "counts Tensara's 2 operations per element (product and reduction) and 12 bytes per element": {
    counts: {
      'n = 2^20': { elements: { d_input1: 1048576, d_input2: 1048576, d_output: 1048576 }, flops: 2097152, bytes: { uint32: 12582912 } },
      // 2^25 elements: 2 · 2^25 operations, 3 · 4 · 2^25 bytes.
      'n = 2^25': { flops: 67108864, bytes: { uint32: 402653184 } },
    },
  },
})

describeProblem(polyMultiplyFf, {
  "has Tensara's signature (d_input1, d_input2, d_output, n) in uint32_t": {
    prototypes: { uint32: UINT32_PROTOTYPE },
  },
  "has Tensara's three sizes, n = 2^6, 2^8, 2^10": {
    cases: ['n = 2^6', 'n = 2^8', 'n = 2^10'],
    params: [{ n: 64 }, { n: 256 }, { n: 1024 }],
  },
  "writes 2n - 1 coefficients and counts Tensara's 2n² operations (a modular product and sum per term)": {
    counts: {
      // 64 + 64 inputs and 127 outputs, 4 bytes each: 1020 bytes; 2 · 64² operations.
      'n = 2^6': { elements: { d_input1: 64, d_input2: 64, d_output: 127 }, flops: 8192, bytes: { uint32: 1020 } },
      // 2 · 1024 + 2047 = 4095 elements, 16380 bytes; 2 · 1024² operations.
      'n = 2^10': { elements: { d_input1: 1024, d_input2: 1024, d_output: 2047 }, flops: 2097152, bytes: { uint32: 16380 } },
    },
  },
})

describeProblem(eccPointNegation, {
  "has Tensara's signature (xs, ys, p, out_xy, n) in uint64_t, p fixed at 2^61 - 1 as a bigint": {
    prototypes: { uint64: 'void solution(const uint64_t* xs, const uint64_t* ys, uint64_t p, uint64_t* out_xy, size_t n)' },
    also: () => {
      expect(MERSENNE_61).toBe(2305843009213693951n)
      expect(eccPointNegation.signature.find((p) => p.name === 'p')).toEqual({ name: 'p', kind: 'scalar', ctype: 'uint64_t', value: MERSENNE_61 })
    },
  },
  'is uint64 only, compared exactly (torch.equal), with a CUDA reference': {
    also: () => {
      expect(eccPointNegation.dtypes).toEqual(['uint64'])
      expect(eccPointNegation.tolerance).toEqual({ uint64: { rtol: 0, atol: 0 } })
      expect(eccPointNegation.description).not.toBe('')
      expectCudaReference(eccPointNegation, 'ecc-point-negation.cu')
    },
  },
  'draws xs and ys from the integers 0 … p - 1, as torch.randint(0, p) does': {
    also: () => expect(eccPointNegation.inputRange).toEqual([0n, 2305843009213693951n]),
  },
  "has Tensara's four batches, N = 2^18 … 2^21, under Tensara's names": {
    cases: ['N = 262,144', 'N = 524,288', 'N = 1,048,576', 'N = 2,097,152'],
    params: [{ n: 262144 }, { n: 524288 }, { n: 1048576 }, { n: 2097152 }],
  },
  "writes 2N elements (the pairs) and counts Tensara's 2 operations per point and 32 bytes per point": {
    counts: {
      // 2^18 points: 2 · 2^18 operations; 8 + 8 bytes read and 16 written per point.
      'N = 262,144': { elements: { xs: 262144, ys: 262144, out_xy: 524288 }, flops: 524288, bytes: { uint64: 8388608 } },
      'N = 2,097,152': { elements: { xs: 2097152, ys: 2097152, out_xy: 4194304 }, flops: 4194304, bytes: { uint64: 67108864 } },
    },
  },
})
