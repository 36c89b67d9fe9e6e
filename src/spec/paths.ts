// Locations inside this package (device code, problem files), wherever it is installed or run from, and the
// default cache directory of a project using it.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

function findPackageRoot(start: string): string {
  let dir = start
  for (;;) {
    const manifest = path.join(dir, 'package.json')
    if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, 'utf8')).name === 'vitest-kernel-bench') return dir
    const parent = path.dirname(dir)
    if (parent === dir) throw new Error(`vitest-kernel-bench: package root not found above ${start}`)
    dir = parent
  }
}

export const PACKAGE_ROOT = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)))

/** Absolute path of a file shipped with the package, e.g. packagePath('cuda/harness.cu'). */
export function packagePath(relative: string): string {
  return path.join(PACKAGE_ROOT, relative)
}

/** Where compiled libraries and measured ceilings are cached, relative to the project root (the plugin's cacheDir). */
export const DEFAULT_CACHE_DIR = 'node_modules/.cache/vitest-kernel-bench'
