// Tensara's reductions over a dimension and scans outside the main job: the shared over-dimension reduction for
// mean, min, product and argmin, and a reduce-then-scan for the cumulative sum and product.
import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { argmin, cumprod, cumsum, meanDim, minDim, productDim } from 'vitest-kernel-bench/problems'

describe('reductions over a dimension', () => {
  kernelBench('mean-dim', { problem: meanDim, solution: '../problems/mean-dim/solutions/mean_dim.cu' })
  kernelBench('min-dim', { problem: minDim, solution: '../problems/min-dim/solutions/min_dim.cu' })
  kernelBench('product-dim', { problem: productDim, solution: '../problems/product-dim/solutions/product_dim.cu' })
  kernelBench('argmin', { problem: argmin, solution: '../problems/argmin/solutions/argmin.cu' })
})

describe('scans', () => {
  kernelBench('cumsum, reduce then scan', { problem: cumsum, solution: '../problems/cumsum/solutions/cumsum.cu' })
  kernelBench('cumprod, reduce then scan', { problem: cumprod, solution: '../problems/cumprod/solutions/cumprod.cu' })
})
