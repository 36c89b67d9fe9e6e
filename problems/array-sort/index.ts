import { defineProblem } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'

const SIZES = [16384, 32768, 65536, 131072, 262144] as const

/**
 * Tensara's array-sort (tensara/problems, problems/array-sort/def.py): b = a sorted ascending, int32, values drawn
 * from [1, 10⁹) as Tensara's torch.randint(1, 10⁹). A sorted array is unique, so it is compared exactly, as Tensara
 * does (torch.equal). Tensara gives no FLOP count; here n·log₂ n, the comparisons of a comparison sort.
 */
export const arraySort = defineProblem({
  name: 'array-sort',
  description: 'Sort n int32 values ascending: b = sort(a); values in [1, 10⁹).',
  signature: [
    { name: 'a', kind: 'input' },
    { name: 'b', kind: 'output' },
    { name: 'n', kind: 'scalar', ctype: 'size_t' },
  ],
  dtypes: ['int32'],
  cases: () => SIZES.map((n) => ({ name: `size_${n}`, params: { n } })),
  elements: ({ params: { n } }) => ({ a: n!, b: n! }),
  flops: ({ params: { n } }) => Math.round(n! * Math.log2(n!)),
  tolerance: { int32: { rtol: 0, atol: 0 } },
  reference: cudaReference('array-sort'),
  inputRange: [1, 1e9],
  shapes: { ranges: { n: [1, 65536] } },
})
