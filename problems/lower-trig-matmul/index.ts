import { triangularMatmul } from '../matmul-common/index.js'

/** Tensara's lower-trig-matmul: C = tril(A)·tril(B), n = 2048 … 8192, rtol 8e-4, atol 2e-2 (see triangularMatmul). */
export const lowerTrigMatmul = triangularMatmul('lower', { rtol: 8e-4, atol: 2e-2 })
