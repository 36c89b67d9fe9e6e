import { elu } from '../../problems/elu/index.js'
import { gelu } from '../../problems/gelu/index.js'
import { hardSigmoid } from '../../problems/hard-sigmoid/index.js'
import { leakyRelu } from '../../problems/leaky-relu/index.js'
import { matrixScalar } from '../../problems/matrix-scalar/index.js'
import { relu } from '../../problems/relu/index.js'
import { selu } from '../../problems/selu/index.js'
import { sigmoid } from '../../problems/sigmoid/index.js'
import { softPlus } from '../../problems/soft-plus/index.js'
import { swish } from '../../problems/swish/index.js'
import { tanh } from '../../problems/tanh/index.js'
import { threshold } from '../../problems/threshold/index.js'
import type { Dtype } from '../../src/spec/dtype.js'
import type { Problem } from '../../src/spec/problem.js'
import { exampleFile, fixtureFile, type Example, type Planted } from './types.js'

// Every elementwise problem has one example per dtype, named <stem>_<suffix>.cu.
const SUFFIXES: ReadonlyArray<readonly [Dtype, string]> = [
  ['float32', 'f32'],
  ['float16', 'f16'],
  ['bfloat16', 'bf16'],
]
const STEMS: ReadonlyArray<readonly [Problem, string]> = [
  [relu, 'relu'],
  [leakyRelu, 'leaky_relu'],
  [gelu, 'gelu'],
  [matrixScalar, 'matrix_scalar'],
  [sigmoid, 'sigmoid'],
  [tanh, 'tanh'],
  [swish, 'swish'],
  [softPlus, 'soft_plus'],
  [elu, 'elu'],
  [selu, 'selu'],
  [hardSigmoid, 'hard_sigmoid'],
  [threshold, 'threshold'],
]

export const examples: Example[] = STEMS.flatMap(([problem, stem]) =>
  SUFFIXES.map(([dtype, suffix]) => ({ problem, solution: exampleFile(problem.name, `${stem}_${suffix}.cu`), dtype })),
)

export const planted: Planted[] = [
  {
    problem: relu,
    solution: fixtureFile('wrong_elementwise_tail.cu'),
    dtype: 'float32',
    message: /output: 4 of 16777216 elements out of tolerance[^;]*, 4 NaN \(never written, or read before written[^)]*\); first bad index 16777212:/,
  },
  {
    problem: gelu,
    solution: fixtureFile('wrong_elementwise_gelu_erf.cu'),
    dtype: 'float32',
    message: /output: \d+ of 16777216 elements out of tolerance[^;]*; first bad index 0: expected -0\.169719/,
  },
]
