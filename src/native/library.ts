// Finds and loads the shared libraries the native core needs. Every place looked in is remembered, so that a
// missing library produces an error that says where it looked and what to set.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import koffi, { type LibraryHandle } from 'koffi'
import { toolkitRoots } from '../compile/toolkit.js'

export interface LibrarySpec {
  /** What a user would call it, e.g. 'CUDA runtime'. */
  readonly title: string
  /** File names to try, preferred first, e.g. ['libcudart.so.13', 'libcudart.so.12', 'libcudart.so']. */
  readonly files: readonly string[]
  /** Folder of the pip wheel that ships it (site-packages/nvidia/<pipFolder>/lib), if any. */
  readonly pipFolder?: string
  /** Whether the library comes with the driver rather than the toolkit (NVML, libcuda). */
  readonly fromDriver?: boolean
}

export class LibraryNotFoundError extends Error {
  constructor(spec: LibrarySpec, looked: readonly string[]) {
    super(
      `${spec.title} library not found (${spec.files.join(', ')}).\n` +
        `Looked in:\n${looked.map((p) => `  - ${p}`).join('\n')}\n` +
        (spec.fromDriver
          ? 'Install the NVIDIA driver, or add its library folder to LD_LIBRARY_PATH.'
          : 'Install the CUDA toolkit, set CUDA_HOME (or CUDA_PATH) to it, add its lib64 folder to LD_LIBRARY_PATH, or pip-install the nvidia-* wheel.'),
    )
    this.name = 'LibraryNotFoundError'
  }
}

function pipLibraryFolders(pipFolder: string): string[] {
  const prefixes = [process.env.VIRTUAL_ENV, '/usr', '/usr/local', path.join(os.homedir(), '.local')]
  const folders: string[] = []
  for (const prefix of prefixes) {
    if (!prefix) continue
    const lib = path.join(prefix, 'lib')
    let entries: string[] = []
    try {
      entries = fs.readdirSync(lib).filter((name) => name.startsWith('python3'))
    } catch {
      continue
    }
    for (const python of entries) {
      for (const packages of ['site-packages', 'dist-packages']) {
        folders.push(path.join(lib, python, packages, 'nvidia', pipFolder, 'lib'))
      }
    }
  }
  return folders
}

/** Every folder to try for a library, in order. */
export function candidateFolders(spec: LibrarySpec, env: NodeJS.ProcessEnv = process.env): string[] {
  const folders: string[] = []
  if (!spec.fromDriver) {
    for (const root of toolkitRoots(env)) {
      folders.push(path.join(root, 'lib64'), path.join(root, 'lib'), path.join(root, 'targets/x86_64-linux/lib'))
    }
  }
  for (const dir of (env.LD_LIBRARY_PATH ?? '').split(path.delimiter)) if (dir) folders.push(dir)
  if (spec.fromDriver) folders.push('/usr/lib/x86_64-linux-gnu', '/usr/lib64', '/usr/local/nvidia/lib64', '/usr/lib/wsl/lib')
  if (spec.pipFolder) folders.push(...pipLibraryFolders(spec.pipFolder))
  return [...new Set(folders)]
}

const loaded = new Map<string, LibraryHandle>()

/** Loads the first matching file; falls back to the dynamic loader's own search (ldconfig cache) by name. */
export function loadLibrary(spec: LibrarySpec): LibraryHandle {
  const cached = loaded.get(spec.title)
  if (cached) return cached
  const looked: string[] = []
  for (const file of spec.files) {
    for (const folder of candidateFolders(spec)) {
      const candidate = path.join(folder, file)
      looked.push(candidate)
      if (!fs.existsSync(candidate)) continue
      const lib = koffi.load(candidate)
      loaded.set(spec.title, lib)
      return lib
    }
  }
  for (const file of spec.files) {
    looked.push(`${file} through the dynamic loader's search path`)
    try {
      const lib = koffi.load(file)
      loaded.set(spec.title, lib)
      return lib
    } catch {
      // try the next name
    }
  }
  throw new LibraryNotFoundError(spec, looked)
}
