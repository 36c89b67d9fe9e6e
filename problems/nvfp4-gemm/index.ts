import { defineProblem, type TestCase } from '../../src/spec/problem.js'
import { swizzledScaleBytes } from '../mx-common/swizzle.js'
import { cudaReference } from '../cuda-reference.js'

const BLOCK = 16
/** Tensara's global encode factor 6·448 / amax for data whose largest magnitude is 1. */
const GLOBAL_FACTOR = 2688

const CASES: readonly TestCase[] = (
  [
    [1024, 1024, 1024],
    [2048, 1024, 2048],
    [4096, 2048, 4096],
    [4096, 4096, 4096],
    [8192, 4096, 8192],
  ] as const
).map(([m, n, k]) => ({ name: `${m} x ${n} x ${k}`, params: { m, n, k, sf_g_a: GLOBAL_FACTOR, sf_g_b: GLOBAL_FACTOR } }))

/**
 * Tensara's nvfp4-gemm (torch's scaled_mm on float4_e2m1fn_x2 with BlockWise1x16 E4M3 scales, SWIZZLE_32_4_4, and
 * TensorWise 1/sf_g): C = (A·Bᵀ) / (sf_g_a · sf_g_b) in float16, A m×k and B n×k NVFP4 (E2M1 two per byte, the even
 * element in the low nibble, one E4M3 scale per 16 along k in the 128×4 swizzled layout). Tensara's "float8" scale
 * parameters are uint8_t in C. Unlike the MX GEMMs, its cases are unpacked as written (m × n × k).
 *
 * Tensara runs it on B200s, whose tensor cores multiply NVFP4; Hopper has none, so a solution decodes in software and
 * accumulates in fp32, and the reference decodes exactly and accumulates in double. Tensara quantizes uniform
 * [-1, 1) half data with FlashInfer (sf_g about 2688); here both global factors are 2688 and the bytes are drawn:
 * elements from every byte, scales from 0x00..0x7E (every finite non-negative E4M3 value), so every decoded element
 * lies in [-1, 1] as Tensara's do.
 */
export const nvfp4Gemm = defineProblem({
  name: 'nvfp4-gemm',
  description:
    'C = A·Bᵀ / (sf_g_a·sf_g_b) in float16 of NVFP4 matrices A (m×k) and B (n×k): E2M1 elements two per byte (the ' +
    'even element in the low nibble), one E4M3 scale per 16 along k in the 128×4 swizzled layout.',
  signature: [
    { name: 'q_a', kind: 'input', dtype: 'uint8', range: [0, 256] },
    // Tensara types the E4M3 scales "float8": `uint8_t*` in its starter, `__nv_fp8_e4m3*` accepted too.
    { name: 'scale_a', kind: 'input', dtype: 'uint8', range: [0, 0x7f], elementAlias: '__nv_fp8_e4m3' },
    { name: 'sf_g_a', kind: 'scalar', ctype: 'float' },
    { name: 'q_b', kind: 'input', dtype: 'uint8', range: [0, 256] },
    { name: 'scale_b', kind: 'input', dtype: 'uint8', range: [0, 0x7f], elementAlias: '__nv_fp8_e4m3' },
    { name: 'sf_g_b', kind: 'scalar', ctype: 'float' },
    { name: 'c', kind: 'output' },
    { name: 'm', kind: 'scalar', ctype: 'size_t' },
    { name: 'n', kind: 'scalar', ctype: 'size_t' },
    { name: 'k', kind: 'scalar', ctype: 'size_t' },
  ],
  dtypes: ['float16'],
  cases: () => CASES,
  elements: ({ params: { m, n, k } }) => ({
    q_a: (m! * k!) / 2,
    scale_a: swizzledScaleBytes(m!, k! / BLOCK),
    q_b: (n! * k!) / 2,
    scale_b: swizzledScaleBytes(n!, k! / BLOCK),
    c: m! * n!,
  }),
  // Tensara's count: a multiply and an add per term, 2·m·n·k.
  flops: ({ params: { m, n, k } }) => 2 * m! * n! * k!,
  // Tensara's torch.allclose(rtol=2e-2, atol=5e-2).
  tolerance: { float16: { rtol: 2e-2, atol: 5e-2 } },
  reference: cudaReference('nvfp4-gemm'),
  shapes: {
    ranges: { m: [1, 512], n: [1, 512], k: [BLOCK, 512] },
    // Tensara's rule: k in whole blocks of 16.
    valid: ({ k }) => k! % BLOCK === 0,
  },
})
