// The CUPTI shim (cuda/cupti_shim.cpp), compiled with the same nvcc driver and cache as the harness and linked
// against the CUPTI of nvcc's own toolkit: activity record layouts change between releases, so the header the shim
// is compiled with and the library it runs with must come from one toolkit. The library folder is written into the
// shim as its run path, so loading the shim finds that libcupti without LD_LIBRARY_PATH.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { packagePath } from '../paths.js'
import type { BuildSettings } from './harness.js'
import { compileSync, DEFAULT_NVCC_FLAGS, findNvcc, type CompiledLibrary } from './nvcc.js'

/** Where CUPTI's header and library are, inside one toolkit. */
export interface CuptiLocation {
  includeDir: string
  libraryDir: string
}

export class CuptiNotFoundError extends Error {
  constructor(toolkitRoot: string, looked: readonly string[]) {
    super(
      `CUPTI not found in the CUDA toolkit at ${toolkitRoot} (the one nvcc belongs to).\nLooked for:\n` +
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

/**
 * The root of the toolkit an nvcc belongs to, as nvcc itself reports it (`TOP` in its dry run): the nvcc found on
 * PATH may be a wrapper script outside the toolkit. Falls back to the folder above the resolved nvcc's bin.
 */
export function toolkitRootOf(nvcc: string): string {
  const run = spawnSync(nvcc, ['--dryrun', '-E', '-x', 'cu', '/dev/null'], { encoding: 'utf8' })
  const top = /^#\$ TOP=(.+)$/m.exec(`${run.stdout ?? ''}${run.stderr ?? ''}`)?.[1]
  return top ? path.resolve(top.trim()) : path.dirname(path.dirname(fs.realpathSync(nvcc)))
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

/** nvcc flags that compile against this CUPTI and make the shim load it at run time. */
export function cuptiFlags(cupti: CuptiLocation): string[] {
  return [
    ...DEFAULT_NVCC_FLAGS,
    `-I${cupti.includeDir}`,
    `-L${cupti.libraryDir}`,
    '-lcupti',
    '-Xlinker',
    `-rpath,${cupti.libraryDir}`,
  ]
}

/** Blocking: the device host builds it in the middle of a case's synchronous setup. */
export function compileCuptiShim(settings: BuildSettings): CompiledLibrary {
  const cupti = findCupti(toolkitRootOf(findNvcc(settings.nvcc)))
  return compileSync({ source: packagePath('cuda/cupti_shim.cpp'), flags: cuptiFlags(cupti), ...settings })
}
