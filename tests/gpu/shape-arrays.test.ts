// The problems whose signature carries Tensara's shape array (softmax, sum-dim, max-dim, mean-dim, product-dim: device
// memory; min-dim, argmax, argmin, mse-loss: page-locked host memory), verified on random shapes drawn by
// kernelProperty(): the array must hold each drawn shape, wherever it lives. kernelProperty skips, with the reason,
// where no GPU is usable.
import { kernelProperty } from 'vitest-kernel-bench'
import { argmax, argmin, maxDim, meanDim, minDim, mseLoss, productDim, softmax, sumDim } from '../../problems/index.js'

const example = (problem: string, file: string) => `../../problems/${problem}/solutions/${file}`
const numRuns = 15

kernelProperty('softmax.cu on random shapes (shape in device memory)', { problem: softmax, solution: example('softmax', 'softmax.cu'), numRuns })
kernelProperty('max_dim.cu on random shapes (shape in device memory)', { problem: maxDim, solution: example('max-dim', 'max_dim.cu'), numRuns })
kernelProperty('sum_dim.cu on random shapes (shape in device memory)', { problem: sumDim, solution: example('sum-dim', 'sum_dim.cu'), numRuns })
kernelProperty('argmax.cu on random shapes (int shape in host memory)', { problem: argmax, solution: example('argmax', 'argmax.cu'), numRuns })
kernelProperty('mean_dim.cu on random shapes (shape in device memory)', { problem: meanDim, solution: example('mean-dim', 'mean_dim.cu'), numRuns })
kernelProperty('min_dim.cu on random shapes (shape in host memory)', { problem: minDim, solution: example('min-dim', 'min_dim.cu'), numRuns })
kernelProperty('product_dim.cu on random shapes (shape in device memory)', {
  problem: productDim,
  solution: example('product-dim', 'product_dim.cu'),
  numRuns,
})
kernelProperty('argmin.cu on random shapes (int shape in host memory)', { problem: argmin, solution: example('argmin', 'argmin.cu'), numRuns })
kernelProperty('mse_loss.cu on random 2-D shapes (shape in host memory)', { problem: mseLoss, solution: example('mse-loss', 'mse_loss.cu'), numRuns })
kernelProperty('a Tensara-style sum-dim that copies the shape to the host and reads it in its kernel too, on random shapes', {
  problem: sumDim,
  solution: '../fixtures/solutions/sum_dim_shape_anywhere.cu',
  numRuns,
})
