// Tensara's scans (cumsum, cumprod): an inclusive prefix over a 1-D float32 vector, `(input, output, size_t N)`,
// with Tensara's five sizes N = 65536 … 1048576, N - 1 operations, and the reference cuda/references/<name>.cu.
import { defineProblem, type Problem, type Tolerance } from '../../src/spec/problem.js'
import { cudaReference } from '../cuda-reference.js'

/** The sizes Tensara tests cumsum and cumprod on (the same five for both). */
const SCAN_SIZES = [65_536, 131_072, 262_144, 524_288, 1_048_576]

/** What sets cumsum and cumprod apart. */
export interface Scan {
  readonly name: string
  readonly description: string
  readonly tolerance: Tolerance
  readonly inputRange: readonly [number, number]
}

export function defineScan(s: Scan): Problem<'float32'> {
  return defineProblem({
    name: s.name,
    description: s.description,
    signature: [
      { name: 'input', kind: 'input' },
      { name: 'output', kind: 'output' },
      { name: 'N', kind: 'scalar', ctype: 'size_t' },
    ],
    dtypes: ['float32'],
    // Named as Tensara names them.
    cases: () => SCAN_SIZES.map((N) => ({ name: `N=${N}`, params: { N } })),
    elements: ({ params }) => ({ input: params.N!, output: params.N! }),
    // Tensara's count: one operation per element after the first.
    flops: ({ params }) => params.N! - 1,
    tolerance: { float32: s.tolerance },
    reference: cudaReference(s.name),
    inputRange: s.inputRange,
    // Random sizes up to Tensara's largest, with lengths that are not a multiple of any tile.
    shapes: { ranges: { N: [1, 1_048_576] } },
  })
}
