import { defineMersenne31Problem } from '../finite-field-common/field.js'

/**
 * Tensara's vector-multiply-ff: c[i] = a[i]·b[i] mod p over F_p, p = 2^31 - 1, n = 2^20 … 2^25. Tensara counts 2 FLOPs
 * per element (the multiplication and the reduction); the bytes are the default, 4 bytes read twice and written once.
 */
export const vectorMultiplyFf = defineMersenne31Problem({
  name: 'vector-multiply-ff',
  description: 'Element-wise product of two vectors over F_p, p = 2^31 - 1: c[i] = a[i]·b[i] mod p, uint32 elements in [0, p).',
  exponents: [20, 22, 24, 25],
  outputElements: (n) => n,
  flops: (n) => 2 * n,
})
