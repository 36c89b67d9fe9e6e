// The layering rule of docs/architecture.md, checked on the sources: no file imports one of a higher layer (type
// imports count), and comments cite only documents that are in this repository.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const self = path.relative(root, fileURLToPath(import.meta.url))

function filesUnder(dir: string, extensions: RegExp): string[] {
  const absolute = path.join(root, dir)
  if (!fs.existsSync(absolute)) return []
  return fs
    .readdirSync(absolute, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && extensions.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => !file.includes('node_modules/'))
}

const GLUE = ['plugin', 'blob-reports', 'runner', 'reporter', 'index', 'bench', 'guarded-bench', 'matchers', 'registry', 'modifiers', 'cli', 'starter', 'watch-cu'].map((n) => `src/${n}.ts`)

/** 0: options, dtype, problem, signature, native/, compile/, engine/, results and the other leaves; 1: report/; 2: baseline/; 3: the Vitest glue. */
function layerOf(file: string): { rank: number; name: string } {
  if (file.startsWith('src/report/')) return { rank: 1, name: 'report' }
  if (file.startsWith('src/baseline/')) return { rank: 2, name: 'baseline' }
  if (GLUE.includes(file) || file.startsWith('src/verify/')) return { rank: 3, name: 'Vitest glue' }
  return { rank: 0, name: 'core' }
}

// `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')`, type-only ones included.
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g

function relativeImports(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3] ?? '').filter((spec) => spec.startsWith('.'))
}

describe('layers', () => {
  it('finds imports of every form', () => {
    const text = [
      "import { a } from './a.js'",
      "import type { B } from '../b.js'",
      "export { c } from './c/index.js'",
      "import {\n  d,\n  type E,\n} from './d.js'",
      "import './side-effect.js'",
      "const f = await import('./f.js')",
      "import pc from 'picocolors'",
    ].join('\n')
    expect(relativeImports(text)).toEqual(['./a.js', '../b.js', './c/index.js', './d.js', './side-effect.js', './f.js'])
  })

  it('no file of src/ imports a file of a higher layer', () => {
    const upward: string[] = []
    for (const file of filesUnder('src', /\.ts$/)) {
      const text = fs.readFileSync(path.join(root, file), 'utf8')
      for (const spec of relativeImports(text)) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\.js$/, '.ts')
        if (!target.startsWith('src/')) continue
        const [from, to] = [layerOf(file), layerOf(target)]
        if (to.rank > from.rank) upward.push(`${file} (${from.name}) imports ${target} (${to.name})`)
      }
    }
    expect(upward).toEqual([])
  })

  it('comments cite no design document outside the repository, and every docs/ page they cite exists', () => {
    const outside: string[] = []
    const missing: string[] = []
    const sources = ['src', 'cuda', 'scripts', 'problems', 'tests'].flatMap((dir) => filesUnder(dir, /\.(ts|cu|cuh|cpp|sh)$/))
    for (const file of sources.filter((f) => f !== self)) {
      const text = fs.readFileSync(path.join(root, file), 'utf8')
      if (/\bDESIGN(\.md)?\s*§|\bDESIGN\.md\b/.test(text)) outside.push(file)
      for (const [page] of text.matchAll(/\bdocs\/[\w.-]+\.md\b/g)) {
        if (!fs.existsSync(path.join(root, page))) missing.push(`${file}: ${page}`)
      }
    }
    expect(outside).toEqual([])
    expect(missing).toEqual([])
  })
})
