// The harness's own device code and the problems' CUDA references, compiled with the same driver and cache as
// solutions.
import { DTYPE_CTYPE, type Dtype } from '../spec/dtype.js'
import { packagePath } from '../spec/paths.js'
import { compile, compileSync, HARNESS_NVCC_FLAGS, type CompiledLibrary } from './nvcc.js'

export interface BuildSettings {
  arch: string
  cacheDir: string
  nvcc?: string
  /** At most this many nvcc processes at once on this host (see resolveCompileJobs). */
  jobs?: number
}

/** Blocking: the device host compiles it before it can answer anything. */
export function compileHarness(settings: BuildSettings): CompiledLibrary {
  return compileSync({ source: packagePath('cuda/harness.cu'), flags: HARNESS_NVCC_FLAGS, ...settings })
}

/** A reference file is written once for any element type: KB_T names it. */
export function compileReference(file: string, prototype: string, dtype: Dtype, settings: BuildSettings): Promise<CompiledLibrary> {
  return compile({ source: file, prototype, defines: { KB_T: DTYPE_CTYPE[dtype] }, ...settings })
}
