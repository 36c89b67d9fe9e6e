import { defineMersenne31Problem } from '../finite-field-common/field.js'

/**
 * Tensara's poly-multiply-ff: the product of two polynomials of n coefficients over F_p, p = 2^31 - 1, as its 2n - 1
 * coefficients c[k] = Σ_{i+j=k} a[i]·b[j] mod p, n = 2^6, 2^8, 2^10. Tensara counts 2n² FLOPs (a modular multiplication
 * and a modular addition per term).
 */
export const polyMultiplyFf = defineMersenne31Problem({
  name: 'poly-multiply-ff',
  description:
    'Product of two polynomials of n coefficients over F_p, p = 2^31 - 1: the 2n - 1 coefficients ' +
    'c[k] = Σ_{i+j=k} a[i]·b[j] mod p, uint32 elements in [0, p).',
  exponents: [6, 8, 10],
  outputElements: (n) => 2 * n - 1,
  flops: (n) => 2 * n * n,
})
