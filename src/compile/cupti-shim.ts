// The CUPTI shims, compiled with the same nvcc driver and cache as the harness and linked against the CUPTI of
// nvcc's own toolkit: cuda/cupti_shim.cpp (activity API, `cupti` timing and the stream audit) and
// cuda/range_profiler_shim.cpp (Range Profiler and Profiler Host APIs, `profiler` timing). Record and parameter
// layouts change between releases, so the headers a shim is compiled with and the library it runs with must come
// from one toolkit. The library folders are written into each shim as its run path, so loading a shim finds that
// libcupti (and libnvperf_host, which CUPTI loads to evaluate metrics) without LD_LIBRARY_PATH.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { packagePath } from '../spec/paths.js'
import type { BuildSettings } from './harness.js'
import { compileSync, findNvcc, HARNESS_NVCC_FLAGS, type CompiledLibrary } from './nvcc.js'

/** Where CUPTI's header and library are, inside one toolkit. */
export interface CuptiLocation {
  includeDir: string
  libraryDir: string
}

export class CuptiNotFoundError extends Error {
  /** `what`: the missing part, 'CUPTI' or one of its libraries. */
  constructor(toolkitRoot: string, looked: readonly string[], what = 'CUPTI') {
    super(
      `${what} not found in the CUDA toolkit at ${toolkitRoot} (the one nvcc belongs to).\nLooked for:\n` +
        `${looked.map((p) => `  - ${p}`).join('\n')}\n` +
        'Install the toolkit\'s CUPTI component (cuda-cupti-dev), or use the `events` timing mode.',
    )
    this.name = 'CuptiNotFoundError'
  }
}

// Recent toolkits keep CUPTI next to the runtime; older and some cluster installs under extras/CUPTI; Debian's
// packaged toolkit (nvcc in /usr/bin) in the multiarch folder.
const INCLUDE_DIRS = ['include', 'extras/CUPTI/include', 'targets/x86_64-linux/include']
const LIBRARY_DIRS = ['lib64', 'extras/CUPTI/lib64', 'targets/x86_64-linux/lib', 'lib', 'lib/x86_64-linux-gnu']

const toolkitRootCache = new Map<string, string>()

/**
 * The root of the toolkit an nvcc belongs to, as nvcc itself reports it (`TOP` in its dry run): the nvcc found on
 * PATH may be a wrapper script outside the toolkit. Falls back to the folder above the resolved nvcc's bin. Asked
 * once per process and nvcc: it runs nvcc.
 */
export function toolkitRootOf(nvcc: string): string {
  let root = toolkitRootCache.get(nvcc)
  if (root === undefined) {
    const run = spawnSync(nvcc, ['--dryrun', '-E', '-x', 'cu', '/dev/null'], { encoding: 'utf8' })
    const top = /^#\$ TOP=(.+)$/m.exec(`${run.stdout ?? ''}${run.stderr ?? ''}`)?.[1]
    root = top ? path.resolve(top.trim()) : path.dirname(path.dirname(fs.realpathSync(nvcc)))
    toolkitRootCache.set(nvcc, root)
  }
  return root
}

/** The folders holding cupti.h and libcupti.so in the toolkit rooted at `toolkitRoot`. */
export function findCupti(toolkitRoot: string): CuptiLocation {
  const headers = INCLUDE_DIRS.map((dir) => path.join(toolkitRoot, dir, 'cupti.h'))
  const libraries = LIBRARY_DIRS.map((dir) => path.join(toolkitRoot, dir, 'libcupti.so'))
  const header = headers.find((file) => fs.existsSync(file))
  const library = libraries.find((file) => fs.existsSync(file))
  if (!header || !library) throw new CuptiNotFoundError(toolkitRoot, [...headers, ...libraries])
  return { includeDir: path.dirname(header), libraryDir: path.dirname(library) }
}

/** The folder holding libnvperf_host.so (CUPTI's metric evaluation, needed by the Profiler Host API), found as libcupti is. */
export function findNvperfHost(toolkitRoot: string): string {
  const libraries = LIBRARY_DIRS.map((dir) => path.join(toolkitRoot, dir, 'libnvperf_host.so'))
  const library = libraries.find((file) => fs.existsSync(file))
  if (!library) throw new CuptiNotFoundError(toolkitRoot, libraries, "CUPTI's profiler host library (libnvperf_host.so)")
  return path.dirname(library)
}

/** nvcc flags that compile against this CUPTI and make the shim load it at run time. */
export function cuptiFlags(cupti: CuptiLocation): string[] {
  return [
    ...HARNESS_NVCC_FLAGS,
    `-I${cupti.includeDir}`,
    `-L${cupti.libraryDir}`,
    '-lcupti',
    '-Xlinker',
    `-rpath,${cupti.libraryDir}`,
  ]
}

/**
 * cuptiFlags, plus libnvperf_host as a dependency of the shim itself (kept although no symbol of it is used, and
 * found through the shim's run path), so that CUPTI's own load of it by name finds it already loaded.
 */
export function rangeProfilerFlags(cupti: CuptiLocation, nvperfHostDir: string): string[] {
  const runPath = nvperfHostDir === cupti.libraryDir ? [] : ['-Xlinker', `-rpath,${nvperfHostDir}`]
  return [...cuptiFlags(cupti), `-L${nvperfHostDir}`, '-Xlinker', '--no-as-needed', '-lnvperf_host', ...runPath]
}

/** Blocking: the device host builds it in the middle of a case's synchronous setup. */
export function compileCuptiShim(settings: BuildSettings): CompiledLibrary {
  const cupti = findCupti(toolkitRootOf(findNvcc(settings.nvcc)))
  return compileSync({ source: packagePath('cuda/cupti_shim.cpp'), flags: cuptiFlags(cupti), ...settings })
}

/** Blocking, like compileCuptiShim: built when a case first times in `profiler` mode. */
export function compileRangeProfilerShim(settings: BuildSettings): CompiledLibrary {
  const root = toolkitRootOf(findNvcc(settings.nvcc))
  const flags = rangeProfilerFlags(findCupti(root), findNvperfHost(root))
  return compileSync({ source: packagePath('cuda/range_profiler_shim.cpp'), flags, ...settings })
}
