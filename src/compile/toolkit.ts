// Where the CUDA toolkit is: the roots to look in, in order of preference, and commands on PATH. Plain file-system
// lookups, so that the Vitest worker (which compiles, but never loads a native library) and the native bindings
// share them.
import fs from 'node:fs'
import path from 'node:path'

/** Where a toolkit is installed when nothing in the environment says otherwise. */
export const DEFAULT_TOOLKIT_ROOTS: readonly string[] = ['/usr/local/cuda']

/**
 * Toolkit roots in order of preference: the environment, then the toolkit that owns the nvcc on PATH, then the
 * default install locations (a parameter so that tests can describe a machine with no toolkit at all).
 */
export function toolkitRoots(env: NodeJS.ProcessEnv = process.env, defaultRoots: readonly string[] = DEFAULT_TOOLKIT_ROOTS): string[] {
  const roots: string[] = []
  for (const variable of ['CUDA_HOME', 'CUDA_PATH']) {
    const value = env[variable]
    if (value) roots.push(value)
  }
  const nvccOnPath = findOnPath('nvcc', env)
  if (nvccOnPath) roots.push(path.dirname(path.dirname(fs.realpathSync(nvccOnPath))))
  roots.push(...defaultRoots)
  return [...new Set(roots)]
}

export function findOnPath(command: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue
    const candidate = path.join(dir, command)
    try {
      fs.accessSync(candidate, fs.constants.X_OK)
      return candidate
    } catch {
      // not in this folder
    }
  }
  return undefined
}
