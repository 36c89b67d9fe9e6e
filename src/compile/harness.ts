// The harness's own device code and the problems' CUDA references, compiled with the same driver and cache as
// solutions.
import { DTYPE_CTYPE, type Dtype } from '../dtype.js'
import { packagePath } from '../paths.js'
import { compile, type CompiledLibrary } from './nvcc.js'

export interface BuildSettings {
  arch: string
  cacheDir: string
  nvcc?: string
}

export function compileHarness(settings: BuildSettings): CompiledLibrary {
  return compile({ source: packagePath('cuda/harness.cu'), ...settings })
}

/** A reference file is written once for any element type: KB_T names it. */
export function compileReference(file: string, prototype: string, dtype: Dtype, settings: BuildSettings): CompiledLibrary {
  return compile({ source: file, prototype, defines: { KB_T: DTYPE_CTYPE[dtype] }, ...settings })
}
