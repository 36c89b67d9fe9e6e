import { defineProblem } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'
import { floatScalar, inputs, productOutput, sizes } from '../matmul-common/index.js'

/** Tensara's five (batch_size, in_features, out_features, scaling_factor), named as Tensara (Python) prints them. */
const CONFIGS: ReadonlyArray<readonly [number, number, number, string]> = [
  [128, 1024, 512, '2.0'],
  [256, 2048, 1024, '1.5'],
  [64, 512, 256, '0.5'],
  [512, 4096, 2048, '3.0'],
  [32, 256, 128, '1.0'],
]

/**
 * Tensara's matmul-swish (tensara/problems, problems/matmul-swish/def.py as of 32e682c): a linear layer, swish and
 * scaling, out = s · z·σ(z) with z = x·Wᵀ + bias. FLOPs are Tensara's B·O·(2I + 7): per output 2I for the product,
 * 1 for the bias, 4 for σ (arbitrary; 3 operations) and 2 multiplies.
 *
 * Tensara draws x, W and bias from 0.1·N(0, 1); here they are uniform in [-0.17, 0.17], about the same spread
 * (standard deviation 0.098). Inputs in [-1, 1] would make z up to ±20 for in_features = 4096, and fp32
 * accumulation error near z = 0 alone would exceed atol 1e-5.
 */
export const matmulSwish = defineProblem({
  name: 'matmul-swish',
  description:
    'Linear layer, swish and scaling: out = s · z·σ(z), z = x·Wᵀ + bias, with x batch_size×in_features, W ' +
    'out_features×in_features, bias of out_features and out batch_size×out_features, row-major.',
  signature: [
    ...inputs('input_matrix', 'weight_matrix', 'bias'),
    floatScalar('scaling_factor'),
    productOutput('output'),
    ...sizes('batch_size', 'in_features', 'out_features'),
  ],
  dtypes: ['float32'],
  cases: () =>
    CONFIGS.map(([b, i, o, s]) => ({
      name: `B=${b}, In=${i}, Out=${o}, Scale=${s}`,
      params: { batch_size: b, in_features: i, out_features: o, scaling_factor: Number(s) },
    })),
  elements: ({ params: { batch_size: b, in_features: i, out_features: o } }) => ({
    input_matrix: b! * i!,
    weight_matrix: o! * i!,
    bias: o!,
    output: b! * o!,
  }),
  flops: ({ params: { batch_size: b, in_features: i, out_features: o } }) => b! * o! * (2 * i! + 7),
  tolerance: { float32: { rtol: 3e-4, atol: 1e-5 } },
  reference: cudaReference('matmul-swish'),
  inputRange: [-0.17, 0.17],
  shapes: { ranges: { batch_size: [1, 512], in_features: [1, 2048], out_features: [1, 1024] } },
})
