// The normalisations' examples: a block per row for the row normalisations, two passes over the whole grid for the
// Frobenius normalisation, and chunk statistics merged per channel for batch normalisation; prefix sums in double for
// the 1-D running sum.
import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { batchNorm } from '../problems/batch-norm/index.js'
import { frobeniusNorm } from '../problems/frobenius-norm/index.js'
import { l1Norm } from '../problems/l1-norm/index.js'
import { l2Norm } from '../problems/l2-norm/index.js'
import { logSoftmax } from '../problems/log-softmax/index.js'
import { runningSum1d } from '../problems/running-sum-1d/index.js'

describe('normalisation', () => {
  kernelBench('log-softmax, block per row', { problem: logSoftmax, solution: '../problems/log-softmax/solutions/log_softmax.cu' })
  kernelBench('l1-norm, block per row', { problem: l1Norm, solution: '../problems/l1-norm/solutions/l1_norm.cu' })
  kernelBench('l2-norm, block per row', { problem: l2Norm, solution: '../problems/l2-norm/solutions/l2_norm.cu' })
  kernelBench('frobenius-norm, two grid passes', { problem: frobeniusNorm, solution: '../problems/frobenius-norm/solutions/frobenius_norm.cu' })
  kernelBench('batch-norm, chunked channels', { problem: batchNorm, solution: '../problems/batch-norm/solutions/batch_norm.cu' })
})

describe('windowed sums', () => {
  kernelBench('running-sum-1d, double prefix sums', { problem: runningSum1d, solution: '../problems/running-sum-1d/solutions/running_sum_1d.cu' })
})
