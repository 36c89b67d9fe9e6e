import { triangularMatmul } from '../matmul-common/index.js'

/** Tensara's upper-trig-matmul: C = triu(A)·triu(B), n = 2048 … 8192, rtol 1e-4, atol 1e-3 (see triangularMatmul). */
export const upperTrigMatmul = triangularMatmul('upper', { rtol: 1e-4, atol: 1e-3 })
