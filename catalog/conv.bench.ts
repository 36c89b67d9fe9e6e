// The convolution family's examples beyond those of the main job (bench/conv-attention.bench.ts times conv-1d and
// conv-2d): a plane-by-plane shared-memory 3-D convolution and a shared-memory 2-D convolution with its activations
// fused into the store.
import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { convSquare3d } from '../problems/conv-square-3d/index.js'
import { conv2dReluHardswish } from '../problems/conv2d-relu-hardswish/index.js'

describe('convolution', () => {
  kernelBench('conv-square-3d, plane-tiled', { problem: convSquare3d, solution: '../problems/conv-square-3d/solutions/conv3d_plane_tiled.cu' })
  kernelBench('conv2d-relu-hardswish, tiled and fused', {
    problem: conv2dReluHardswish,
    solution: '../problems/conv2d-relu-hardswish/solutions/conv2d_relu_hardswish_tiled.cu',
  })
})
