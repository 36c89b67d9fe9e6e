// What Tensara's MX GEMMs (mxfp8-gemm, mxfp4-gemm) share: C[m×n] = A·Bᵀ in float32 of an m×k A and an n×k B, both
// MX matrices (row-major packed elements `q_*`, one E8M0 scale byte per 32 along k in the 128×4 swizzled layout
// `scale_*`), Tensara's five shapes, tolerance and FLOP count, and a CUDA reference named after the slug.
//
// Tensara runs them on B200s, whose tensor cores multiply MX formats (torch's scaled_mm); Hopper has no FP4 or MX
// block-scaled MMA, so here a solution decodes in software (or converts FP8 to a type Hopper multiplies) and
// accumulates in fp32, and the reference decodes exactly and accumulates in double. Tensara quantizes randn data
// with torchao to make its inputs; here the bytes are drawn, each input from its own range (in each definition).
import { defineProblem, type Problem, type TestCase } from '../../src/spec/problem.js'
import { swizzledScaleBytes } from './swizzle.js'
import { cudaReference } from '../cuda-reference.js'

const BLOCK = 32

/**
 * Tensara's five cases. Its generate_test_cases unpacks each (m, n, k, name) row as (m, k, n, name), so the middle
 * number of a name is k and the last n ('2048 x 1024 x 2048' is m = 2048, k = 1024, n = 2048); the names and shapes
 * here are Tensara's as it runs them.
 */
const ROWS: readonly (readonly [number, number, number])[] = [
  [1024, 1024, 1024],
  [2048, 1024, 2048],
  [4096, 2048, 4096],
  [4096, 4096, 4096],
  [8192, 4096, 8192],
]
const CASES: readonly TestCase[] = ROWS.map(([m, k, n]) => ({ name: `${m} x ${k} x ${n}`, params: { m, n, k } }))

export interface MxGemmSpec {
  readonly name: string
  readonly description: string
  /** Elements per byte of `q_a` and `q_b`: 1 for FP8, 2 for FP4. */
  readonly elementsPerByte: number
  /** The bytes the elements and the scales are drawn from, [lo, hi). */
  readonly qBytes: readonly [number, number]
  readonly scaleBytes: readonly [number, number]
}

/** A Tensara MX GEMM: `(q_a, scale_a, q_b, scale_b, c, m, n, k)`, its reference in cuda/references/<name>.cu. */
export function defineMxGemmProblem(spec: MxGemmSpec): Problem<'float32'> {
  return defineProblem({
    name: spec.name,
    description: spec.description,
    signature: [
      { name: 'q_a', kind: 'input', dtype: 'uint8', range: spec.qBytes },
      { name: 'scale_a', kind: 'input', dtype: 'uint8', range: spec.scaleBytes },
      { name: 'q_b', kind: 'input', dtype: 'uint8', range: spec.qBytes },
      { name: 'scale_b', kind: 'input', dtype: 'uint8', range: spec.scaleBytes },
      { name: 'c', kind: 'output' },
      { name: 'm', kind: 'scalar', ctype: 'size_t' },
      { name: 'n', kind: 'scalar', ctype: 'size_t' },
      { name: 'k', kind: 'scalar', ctype: 'size_t' },
    ],
    dtypes: ['float32'],
    cases: () => CASES,
    elements: ({ params: { m, n, k } }) => ({
      q_a: (m! * k!) / spec.elementsPerByte,
      scale_a: swizzledScaleBytes(m!, k! / BLOCK),
      q_b: (n! * k!) / spec.elementsPerByte,
      scale_b: swizzledScaleBytes(n!, k! / BLOCK),
      c: m! * n!,
    }),
    // Tensara's count: a multiply and an add per term, 2·m·n·k.
    flops: ({ params: { m, n, k } }) => 2 * m! * n! * k!,
    // Tensara's torch.allclose(rtol=2e-2, atol=5e-2).
    tolerance: { float32: { rtol: 2e-2, atol: 5e-2 } },
    reference: cudaReference(spec.name),
    shapes: {
      ranges: { m: [1, 512], n: [BLOCK, 512], k: [BLOCK, 512] },
      // Tensara's rules: k and n in whole blocks of 32.
      valid: ({ n, k }) => n! % BLOCK === 0 && k! % BLOCK === 0,
    },
  })
}
