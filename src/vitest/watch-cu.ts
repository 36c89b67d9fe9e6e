// The CUDA sources a bench or test file names in string literals. Vitest's watch mode re-runs a file when a module
// in its import graph changes, and a solution path such as './sgemm.cu' is not an import: the plugin declares
// these files as watched dependencies of the module that names them (see plugin.ts).
import fs from 'node:fs'
import path from 'node:path'

/** '…', "…" or a template literal without substitutions, ending in .cu or .cuh (no escapes: these are paths). */
const CUDA_LITERAL = /'([^'\\\r\n]*\.cuh?)'|"([^"\\\r\n]*\.cuh?)"|`([^`\\$]*\.cuh?)`/g

/** JavaScript and TypeScript modules, the only ones that can call kernelBench() or kernelProperty(). */
const SCRIPT_MODULE = /\.[cm]?[jt]sx?$/

/** Every distinct string literal in the source that ends in .cu or .cuh, in order of appearance. */
export function cudaPathLiterals(source: string): string[] {
  const found = new Set<string>()
  for (const match of source.matchAll(CUDA_LITERAL)) {
    const literal = match[1] ?? match[2] ?? match[3]
    if (literal) found.add(literal)
  }
  return [...found]
}

/**
 * The existing .cu/.cuh files a module names (each once), resolved relative to the module as kernelBench resolves
 * `solution`.
 * Literals that are no such path (a file name a helper joins to a folder, say) are left out. Modules under
 * node_modules and modules that are not scripts name none.
 */
export function cudaSourcesNamedBy(moduleId: string, source: string): string[] {
  const file = moduleId.split('?')[0] ?? moduleId
  if (!SCRIPT_MODULE.test(file) || file.split(/[\\/]/).includes('node_modules')) return []
  const dir = path.dirname(file)
  const candidates = new Set(cudaPathLiterals(source).map((literal) => path.resolve(dir, literal)))
  return [...candidates].filter((candidate) => fs.statSync(candidate, { throwIfNoEntry: false })?.isFile() ?? false)
}
