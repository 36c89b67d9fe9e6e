// The convolution and attention family's examples: shared-memory tiled convolutions and a FlashAttention-style
// fused attention in fp32.
import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { conv1d } from '../problems/conv-1d/index.js'
import { conv2d } from '../problems/conv-2d/index.js'
import { scaledDotAttention } from '../problems/scaled-dot-attention/index.js'

describe('convolution', () => {
  kernelBench('conv-1d, tiled with filter split', { problem: conv1d, solution: '../problems/conv-1d/solutions/conv1d_tiled.cu' })
  kernelBench('conv-2d, tiled', { problem: conv2d, solution: '../problems/conv-2d/solutions/conv2d_tiled.cu' })
})

describe('attention', () => {
  kernelBench('flash attention, fp32', {
    problem: scaledDotAttention,
    solution: '../problems/scaled-dot-attention/solutions/flash_attention.cu',
  })
})
