// Where a catalogue problem's GPU reference lives: cuda/references/<slug>.cu, an obviously correct kernel accumulating
// in double, compiled beside the solution (docs/add-a-problem.md).
import { packagePath } from '../src/spec/paths.js'
import type { ReferenceSpec } from '../src/spec/problem.js'

/** The problem's reference, cuda/references/<slug>.cu. */
export const cudaReference = (slug: string): ReferenceSpec => ({ kind: 'cuda', file: packagePath(`cuda/references/${slug}.cu`) })
