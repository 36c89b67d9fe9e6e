// A bench's own build settings for its .cu solution (the `build` option of a kernelBench spec), checked when the
// entry is declared. Pure: paths stay as the spec gives them, resolved against the bench file when it compiles.
import { didYouMean, shown } from './suggest.js'
import { unknownOptionMessage } from './options.js'

export interface BenchBuild {
  /** `-DNAME=value`, or `-DNAME` for true. */
  defines?: Readonly<Record<string, string | number | true>>
  /** Folders searched for headers (`-I`), relative to the bench file. */
  includeDirs?: readonly string[]
  /** More .cu or .cpp files compiled and linked into the solution's library, relative to the bench file. */
  sources?: readonly string[]
  /** Libraries linked in (`-l<name>`), e.g. 'cublas', 'cublasLt'. */
  libraries?: readonly string[]
  /** More nvcc flags, after the plugin's `nvccFlags`. */
  flags?: readonly string[]
}

/** A TypeScript or JavaScript solution module: the device host imports it, nvcc never sees it. */
export const MODULE_SOLUTION = /\.(ts|mts|js|mjs)$/
export const TYPESCRIPT_SOLUTION = /\.m?ts$/

const BUILD_KEYS = ['defines', 'includeDirs', 'sources', 'libraries', 'flags'] as const satisfies ReadonlyArray<keyof BenchBuild>

/**
 * The CUDA toolkit's math libraries: the prefix of their headers and symbols (the longer one first), the name to
 * link, and the Debian/Ubuntu package with their headers, which CPU-only CUDA images may lack.
 */
export const CUDA_LIBRARIES = [
  { prefix: 'cublasLt', name: 'cublasLt', title: 'cuBLASLt', dev: 'libcublas-dev' },
  { prefix: 'cublas', name: 'cublas', title: 'cuBLAS', dev: 'libcublas-dev' },
  { prefix: 'cufft', name: 'cufft', title: 'cuFFT', dev: 'libcufft-dev' },
  { prefix: 'curand', name: 'curand', title: 'cuRAND', dev: 'libcurand-dev' },
  { prefix: 'cusparse', name: 'cusparse', title: 'cuSPARSE', dev: 'libcusparse-dev' },
  { prefix: 'cusolver', name: 'cusolver', title: 'cuSOLVER', dev: 'libcusolver-dev' },
] as const

/** The toolkit's libraries, for "did you mean" on a misspelled one; any other name is passed to the linker as is. */
const TOOLKIT_LIBRARIES: readonly string[] = [...CUDA_LIBRARIES.map((l) => l.name), 'cufftw', 'nvrtc', 'nvJitLink', 'cuda', 'nvToolsExt']

const C_IDENTIFIER = /^[A-Za-z_]\w*$/
const LIBRARY_NAME = /^[\w+-][\w.+-]*$/

/** The spec's `build`, checked: a wrong key or value throws naming `option build.<key>` and what it takes. */
export function checkBuild(value: unknown, solution: string): BenchBuild {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`option build must be an object { ${BUILD_KEYS.join(', ')} } (got ${shown(value)})`)
  }
  const unknown = Object.keys(value).find((key) => !(BUILD_KEYS as readonly string[]).includes(key))
  if (unknown !== undefined) throw new Error(`option build: ${unknownOptionMessage(unknown, BUILD_KEYS)}`)
  if (MODULE_SOLUTION.test(solution)) {
    throw new Error(`option build applies to a .cu solution, and '${solution}' is a TypeScript/JavaScript module (it compiles its kernels itself)`)
  }
  const build = value as Record<keyof BenchBuild, unknown>
  if (build.defines !== undefined) checkDefines(build.defines)
  for (const key of ['includeDirs', 'sources', 'flags'] as const) if (build[key] !== undefined) checkStrings(key, build[key])
  if (build.libraries !== undefined) {
    checkStrings('libraries', build.libraries)
    ;(build.libraries as string[]).forEach(checkLibrary)
  }
  ;((build.flags as string[] | undefined) ?? []).forEach(checkFlag)
  return value as BenchBuild
}

function checkDefines(defines: unknown): void {
  if (typeof defines !== 'object' || defines === null || Array.isArray(defines)) {
    throw new Error(`option build.defines must be an object { NAME: value } (got ${shown(defines)})`)
  }
  for (const [name, value] of Object.entries(defines)) {
    if (!C_IDENTIFIER.test(name)) throw new Error(`option build.defines: '${name}' is not a C identifier`)
    const fine = typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) || value === true
    if (!fine) throw new Error(`option build.defines.${name} must be a string, a number or true (got ${shown(value)})`)
  }
}

function checkStrings(key: keyof BenchBuild, list: unknown): void {
  if (!Array.isArray(list) || list.some((item) => typeof item !== 'string' || item.trim() === '')) {
    throw new Error(`option build.${key} must be an array of non-empty strings (got ${shown(list)})`)
  }
}

function checkLibrary(name: string): void {
  const bare = name.replace(/^-l/, '').replace(/^lib/, '').replace(/\.(so|a)(\.\d+)*$/, '')
  if (bare !== name) throw new Error(`option build.libraries: write '${bare}', the name without -l, lib or .so (got '${name}')`)
  if (!LIBRARY_NAME.test(name)) throw new Error(`option build.libraries: '${name}' is not a library name (e.g. 'cublas')`)
  if (TOOLKIT_LIBRARIES.includes(name)) return
  const near = didYouMean(name, TOOLKIT_LIBRARIES)
  // Only a near miss of a toolkit library is refused: any other name may be the user's own library.
  if (near) throw new Error(`option build.libraries: unknown CUDA library '${name}'${near}`)
}

/** -D and -I have options of their own, whose paths are resolved against the bench file and whose headers key the cache. */
function checkFlag(flag: string): void {
  if (/^-D/.test(flag)) throw new Error(`option build.flags: give '${flag}' in build.defines instead`)
  if (/^-I/.test(flag)) throw new Error(`option build.flags: give '${flag}' in build.includeDirs instead (relative to the bench file)`)
}
