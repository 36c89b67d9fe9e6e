// The convolution family's examples beyond those of the main job (bench/conv-attention.bench.ts times conv-1d and
// conv-2d): a plane-by-plane shared-memory 3-D convolution.
import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { convSquare3d } from '../problems/conv-square-3d/index.js'

describe('convolution', () => {
  kernelBench('conv-square-3d, plane-tiled', { problem: convSquare3d, solution: '../problems/conv-square-3d/solutions/conv3d_plane_tiled.cu' })
})
