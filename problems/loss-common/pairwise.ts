// What Tensara's elementwise losses (huber-loss, hinge-loss, kl-loss) share: the signature (predictions, targets,
// output, n) over flat float32 vectors, the loss of each pair of elements written to output[i], the four sizes
// 1 Mi … 64 Mi named 'N=<n>' as Tensara names them, and a CUDA reference named after the slug.
import { defineProblem, type Problem, type Tolerance } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'

/** Tensara's four sizes of the elementwise losses. */
export const LOSS_SIZES: readonly number[] = [1048576, 4194304, 16777216, 67108864]

/** Largest n drawn by kernelProperty(): about as many elements as the elementwise family's 2000 × 2000. */
const MAX_RANDOM_N = 4_000_000

export interface PairwiseLossSpec {
  readonly name: string
  readonly description: string
  /** Tensara's own FLOPs per element. */
  readonly flopsPerElement: number
  readonly tolerance: Tolerance
  /** Where both inputs are drawn from; [-1, 1] unless given. */
  readonly inputRange?: readonly [number, number]
}

export function pairwiseLossProblem(spec: PairwiseLossSpec): Problem<'float32'> {
  return defineProblem({
    name: spec.name,
    description: spec.description,
    signature: [
      { name: 'predictions', kind: 'input' },
      { name: 'targets', kind: 'input' },
      { name: 'output', kind: 'output' },
      { name: 'n', kind: 'scalar', ctype: 'size_t' },
    ],
    dtypes: ['float32'],
    cases: () => LOSS_SIZES.map((n) => ({ name: `N=${n}`, params: { n } })),
    elements: ({ params: { n } }) => ({ predictions: n!, targets: n!, output: n! }),
    flops: ({ params: { n } }) => spec.flopsPerElement * n!,
    tolerance: { float32: spec.tolerance },
    reference: cudaReference(spec.name),
    ...(spec.inputRange ? { inputRange: spec.inputRange } : {}),
    shapes: { ranges: { n: [1, MAX_RANDOM_N] } },
  })
}
