// Tolerances of the GEMM family for 16-bit outputs (each problem keeps Tensara's own float32 tolerance).
import type { Dtype } from '../../src/spec/dtype.js'
import type { Tolerance } from '../../src/spec/problem.js'

/**
 * A solution and the reference read the same 16-bit inputs, whose products are exact in fp32, so their outputs
 * differ only by:
 * 1. the one rounding to 16 bits: two fp32 results on either side of a rounding boundary land one unit in the
 *    last place (ulp) apart, at most 2^-10 of the value for float16 and 2^-7 for bfloat16;
 * 2. fp32 accumulation error (the solution's, and cuBLAS's for matrix-multiplication's reference). With inputs in
 *    [-1, 1] and K ≤ 9216, partial sums stay within about ±30 (fp32 ulp 2^-19 ≈ 1.9e-6 there); a tensor core that
 *    truncates once per 16-deep step adds at most 576 × 1.9e-6 ≈ 1.1e-3 even if every error had the same sign.
 *    This matters only for outputs near zero, where the ulp of (1) is tiny.
 * So rtol is two ulps (2^-9 ≈ 2e-3, 2^-6 ≈ 1.6e-2) and atol 2e-3 bounds (2) with margin.
 */
export const HALF_PRECISION_TOLERANCE = {
  float16: { rtol: 2e-3, atol: 2e-3 },
  bfloat16: { rtol: 1.6e-2, atol: 2e-3 },
} as const satisfies Partial<Record<Dtype, Tolerance>>
