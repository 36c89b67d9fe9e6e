// Pieces shared by the matrix-product problems (matmul-3d and -4d, the diagonal, triangular and symmetric products,
// matrix-power and the fused GEMM epilogues): their size scalars, outputs and references.
import { packagePath } from '../../src/spec/paths.js'
import type { ReferenceSpec } from '../../src/spec/problem.js'
import type { ParamSpec } from '../../src/spec/signature.js'

/** size_t scalars, in the order given. */
export const sizes = (...names: readonly string[]): ParamSpec[] => names.map((name) => ({ name, kind: 'scalar', ctype: 'size_t' }))

/**
 * A product's output, starting at zero as for a BLAS call with β = 0: a kernel computing α·A·B + β·C may read it
 * (see the GEMM family).
 */
export const productOutput = (name: string): ParamSpec => ({ name, kind: 'output', initial: 'zero' })

/** The problem's double-accumulating reference, cuda/references/<slug>.cu. */
export const cudaReference = (slug: string): ReferenceSpec => ({ kind: 'cuda', file: packagePath(`cuda/references/${slug}.cu`) })

/** Case names as Tensara writes them for A·B: rows×inner x inner×columns, e.g. '1024x1024 x 1024x512'. */
export const productName = (rows: readonly number[], inner: number, cols: number) => `${[...rows, inner].join('x')} x ${inner}x${cols}`
