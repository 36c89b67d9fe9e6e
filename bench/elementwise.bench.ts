// The elementwise examples, one vectorized solution per problem and dtype.
import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { gelu } from '../problems/gelu/index.js'
import { leakyRelu } from '../problems/leaky-relu/index.js'
import { matrixScalar } from '../problems/matrix-scalar/index.js'
import { relu } from '../problems/relu/index.js'

// The elementwise problems' own dtypes: kernelBench's type accepts only those for their problems.
const DTYPES: ReadonlyArray<readonly [(typeof relu.dtypes)[number], string]> = [
  ['float32', 'f32'],
  ['float16', 'f16'],
  ['bfloat16', 'bf16'],
]

for (const [problem, stem] of [
  [relu, 'relu'],
  [leakyRelu, 'leaky_relu'],
  [gelu, 'gelu'],
  [matrixScalar, 'matrix_scalar'],
] as const) {
  describe(problem.name, () => {
    for (const [dtype, suffix] of DTYPES) {
      kernelBench(`${problem.name} ${dtype}`, {
        problem,
        solution: `../problems/${problem.name}/solutions/${stem}_${suffix}.cu`,
        dtype,
      })
    }
  })
}
