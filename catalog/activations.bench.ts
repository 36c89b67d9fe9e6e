// Tensara's activations outside the main job, each on the shared vectorized map in all three dtypes (the examples of
// problems/<problem>/solutions/<stem>_<dtype>.cu).
import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { elu, hardSigmoid, selu, sigmoid, softPlus, swish, tanh } from 'vitest-kernel-bench/problems'

const activations = [
  [sigmoid, 'sigmoid'],
  [tanh, 'tanh'],
  [swish, 'swish'],
  [softPlus, 'soft_plus'],
  [elu, 'elu'],
  [selu, 'selu'],
  [hardSigmoid, 'hard_sigmoid'],
] as const
const dtypes = [
  ['float32', 'f32'],
  ['float16', 'f16'],
  ['bfloat16', 'bf16'],
] as const

for (const [problem, stem] of activations) {
  describe(problem.name, () => {
    for (const [dtype, suffix] of dtypes) {
      kernelBench(`${problem.name} ${dtype}`, { problem, solution: `../problems/${problem.name}/solutions/${stem}_${suffix}.cu`, dtype })
    }
  })
}
