// Tensara's activations outside the main job, threshold among them, each on the shared vectorized map in all three dtypes (the examples of
// problems/<problem>/solutions/<stem>_<dtype>.cu).
import { describe } from 'vitest'
import { kernelBench } from 'vitest-kernel-bench'
import { elu, hardSigmoid, selu, sigmoid, softPlus, swish, tanh, threshold } from 'vitest-kernel-bench/problems'

const dtypes = [
  ['float32', 'f32'],
  ['float16', 'f16'],
  ['bfloat16', 'bf16'],
] as const

// Each example is named after its problem, with underscores: soft-plus's are soft_plus_<dtype>.cu.
for (const problem of [sigmoid, tanh, swish, softPlus, elu, selu, hardSigmoid, threshold]) {
  const stem = problem.name.replaceAll('-', '_')
  describe(problem.name, () => {
    for (const [dtype, suffix] of dtypes) {
      kernelBench(`${problem.name} ${dtype}`, { problem, solution: `../problems/${problem.name}/solutions/${stem}_${suffix}.cu`, dtype })
    }
  })
}
