// The loss family's examples: elementwise losses and the mean squared error on shared 16-byte pair loads, and a
// block per row for cosine similarity and the triplet margin loss.
import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { cosineSimilarity } from '../problems/cosine-similarity/index.js'
import { hingeLoss } from '../problems/hinge-loss/index.js'
import { huberLoss } from '../problems/huber-loss/index.js'
import { klLoss } from '../problems/kl-loss/index.js'
import { mseLoss } from '../problems/mse-loss/index.js'
import { tripletMargin } from '../problems/triplet-margin/index.js'

describe('elementwise losses', () => {
  kernelBench('huber-loss', { problem: huberLoss, solution: '../problems/huber-loss/solutions/huber_loss.cu' })
  kernelBench('kl-loss', { problem: klLoss, solution: '../problems/kl-loss/solutions/kl_loss.cu' })
  kernelBench('hinge-loss', { problem: hingeLoss, solution: '../problems/hinge-loss/solutions/hinge_loss.cu' })
})

describe('reduced losses', () => {
  kernelBench('mse-loss, two-pass mean', { problem: mseLoss, solution: '../problems/mse-loss/solutions/mse_loss.cu' })
  kernelBench('cosine-similarity, block per row', { problem: cosineSimilarity, solution: '../problems/cosine-similarity/solutions/cosine_similarity.cu' })
  kernelBench('triplet-margin, block per row', { problem: tripletMargin, solution: '../problems/triplet-margin/solutions/triplet_margin.cu' })
})
