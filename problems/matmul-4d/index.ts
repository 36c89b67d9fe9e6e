import { defineProblem } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'
import { inputs, productName, productOutput, sizes } from '../matmul-common/index.js'

/** Tensara's four (b, i, j, l, k): A b×i×j×l times B l×k. */
const DIMS: ReadonlyArray<readonly [number, number, number, number, number]> = [
  [16, 256, 512, 256, 768],
  [8, 128, 256, 128, 512],
  [32, 64, 128, 64, 256],
  [4, 32, 64, 32, 128],
]

/**
 * Tensara's matmul-4d (tensara/problems, problems/matmul-4d/def.py as of 32e682c): einsum('bijl,lk->bijk'), all
 * row-major: one (b·i·j)×l by l×k product. The sizes come in Tensara's order b, i, j, l, k (l is the reduced one).
 */
export const matmul4d = defineProblem({
  name: 'matmul-4d',
  description: '4-D tensor times matrix: C[b][i][j][k] = Σ_l A[b][i][j][l]·B[l][k], with A b×i×j×l, B l×k and C b×i×j×k, row-major.',
  signature: [...inputs('A', 'B'), productOutput('C'), ...sizes('b', 'i', 'j', 'l', 'k')],
  dtypes: ['float32'],
  cases: () => DIMS.map(([b, i, j, l, k]) => ({ name: productName([b, i, j], l, k), params: { b, i, j, l, k } })),
  elements: ({ params: { b, i, j, l, k } }) => ({ A: b! * i! * j! * l!, B: l! * k!, C: b! * i! * j! * k! }),
  flops: ({ params: { b, i, j, l, k } }) => 2 * b! * i! * j! * l! * k!,
  tolerance: { float32: { rtol: 2e-4, atol: 6e-4 } },
  reference: cudaReference('matmul-4d'),
  shapes: { ranges: { b: [1, 4], i: [1, 64], j: [1, 64], l: [1, 512], k: [1, 512] } },
})
