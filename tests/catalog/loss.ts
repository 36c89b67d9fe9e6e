import { cosineSimilarity } from '../../problems/cosine-similarity/index.js'
import { hingeLoss } from '../../problems/hinge-loss/index.js'
import { huberLoss } from '../../problems/huber-loss/index.js'
import { klLoss } from '../../problems/kl-loss/index.js'
import { mseLoss } from '../../problems/mse-loss/index.js'
import { tripletMargin } from '../../problems/triplet-margin/index.js'
import { exampleFile, type Example, type Planted } from './types.js'

export const examples: Example[] = [
  { problem: mseLoss, solution: exampleFile('mse-loss', 'mse_loss.cu'), dtype: 'float32' },
  { problem: huberLoss, solution: exampleFile('huber-loss', 'huber_loss.cu'), dtype: 'float32' },
  { problem: klLoss, solution: exampleFile('kl-loss', 'kl_loss.cu'), dtype: 'float32' },
  { problem: hingeLoss, solution: exampleFile('hinge-loss', 'hinge_loss.cu'), dtype: 'float32' },
  { problem: cosineSimilarity, solution: exampleFile('cosine-similarity', 'cosine_similarity.cu'), dtype: 'float32' },
  { problem: tripletMargin, solution: exampleFile('triplet-margin', 'triplet_margin.cu'), dtype: 'float32' },
]

export const planted: Planted[] = []
