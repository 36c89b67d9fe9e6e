import { conv1d } from '../../problems/conv-1d/index.js'
import { conv2d } from '../../problems/conv-2d/index.js'
import { convSquare3d } from '../../problems/conv-square-3d/index.js'
import { conv2dReluHardswish } from '../../problems/conv2d-relu-hardswish/index.js'
import { scaledDotAttention } from '../../problems/scaled-dot-attention/index.js'
import { exampleFile, fixtureFile, type Example, type Planted } from './types.js'

export const examples: Example[] = [
  { problem: conv1d, solution: exampleFile('conv-1d', 'conv1d_tiled.cu'), dtype: 'float32' },
  { problem: conv2d, solution: exampleFile('conv-2d', 'conv2d_tiled.cu'), dtype: 'float32' },
  { problem: convSquare3d, solution: exampleFile('conv-square-3d', 'conv3d_plane_tiled.cu'), dtype: 'float32' },
  {
    problem: conv2dReluHardswish,
    solution: exampleFile('conv2d-relu-hardswish', 'conv2d_relu_hardswish_tiled.cu'),
    dtype: 'float32',
  },
  { problem: scaledDotAttention, solution: exampleFile('scaled-dot-attention', 'flash_attention.cu'), dtype: 'float32' },
]

export const planted: Planted[] = [
  {
    // Slides the window back inside the signal at the right end: outputs from N - K/2 = 61441 on are wrong.
    problem: conv1d,
    solution: fixtureFile('wrong_conv_1d.cu'),
    dtype: 'float32',
    message: /case 'N=65536, K=8191':\n {2}C: \d+ of 65536 elements out of tolerance [^\n]*; first bad index 61441: expected/,
  },
  {
    // The same at the right border of the image: row 0 goes wrong from column W - Kw/2 = 4092 on.
    problem: conv2d,
    solution: fixtureFile('wrong_conv_2d.cu'),
    dtype: 'float32',
    message: /case 'H=4096, W=4096, Kh=9, Kw=9':\n {2}C: \d+ of 16777216 elements out of tolerance [^\n]*; first bad index 4092: expected/,
  },
]
