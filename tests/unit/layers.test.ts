// The rules of docs/architecture.md, checked on the sources: every file of src/ is in a layer its folder names; no
// file imports one of a higher layer (type imports count); no import cycles; the Vitest worker's side never reaches
// the device host's side or a native library at run time; and comments cite only documents of this repository.
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

/** The layers, lowest first, as docs/architecture.md lists them: a file may import its own layer and lower ones. */
const LAYERS = [
  { name: 'spec', folder: 'src/spec/' },
  { name: 'shared', folder: 'src/shared/' },
  { name: 'cache', folder: 'src/cache/' },
  { name: 'compile', folder: 'src/compile/' },
  { name: 'native', folder: 'src/native/' },
  { name: 'engine', folder: 'src/engine/' },
  { name: 'report', folder: 'src/report/' },
  { name: 'baseline', folder: 'src/baseline/' },
  { name: 'vitest', folder: 'src/vitest/' },
  { name: 'cli', folder: 'src/cli/' },
  { name: 'entry', folder: 'src/' },
] as const

function layerOf(file: string): { rank: number; name: string } {
  const rank = LAYERS.findIndex((layer) => file.startsWith(layer.folder) && (layer.name !== 'entry' || !file.slice(4).includes('/')))
  return { rank, name: LAYERS[rank]?.name ?? 'none' }
}

// `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')`; group 1 is `type` when the whole
// statement is type-only (erased at run time).
const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(type\s)?[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g

interface Import {
  spec: string
  typeOnly: boolean
}

function imports(text: string): Import[] {
  return [...text.matchAll(IMPORT)].map((m) => ({ spec: m[2] ?? m[3] ?? m[4] ?? '', typeOnly: m[1] !== undefined }))
}

/** The repository path a relative import of `file` names, or the package name of a bare one. */
function resolve(file: string, spec: string): string {
  if (!spec.startsWith('.')) return spec
  return path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\.js$/, '.ts')
}

const sources = filesUnder('src', /\.ts$/)
const graph = new Map(
  sources.map((file) => [file, imports(fs.readFileSync(path.join(root, file), 'utf8')).map((i) => ({ ...i, target: resolve(file, i.spec) }))]),
)

/** Every file reachable from `entries` through run-time imports, with the chain that reaches it. */
function runTimeClosure(entries: readonly string[]): Map<string, string[]> {
  const reached = new Map<string, string[]>(entries.map((entry) => [entry, [entry]]))
  const queue = [...entries]
  while (queue.length > 0) {
    const file = queue.shift() as string
    for (const { target, typeOnly } of graph.get(file) ?? []) {
      if (typeOnly || reached.has(target)) continue
      reached.set(target, [...(reached.get(file) ?? []), target])
      if (graph.has(target)) queue.push(target)
    }
  }
  return reached
}

describe('layers', () => {
  it('finds imports of every form, and tells type-only ones apart', () => {
    const text = [
      "import { a } from './a.js'",
      "import type { B } from '../b.js'",
      "export { c } from './c/index.js'",
      "import {\n  d,\n  type E,\n} from './d.js'",
      "import './side-effect.js'",
      "const f = await import('./f.js')",
      "import pc from 'picocolors'",
      "export type { G } from './g.js'",
    ].join('\n')
    expect(imports(text)).toEqual([
      { spec: './a.js', typeOnly: false },
      { spec: '../b.js', typeOnly: true },
      { spec: './c/index.js', typeOnly: false },
      { spec: './d.js', typeOnly: false },
      { spec: './side-effect.js', typeOnly: false },
      { spec: './f.js', typeOnly: false },
      { spec: 'picocolors', typeOnly: false },
      { spec: './g.js', typeOnly: true },
    ])
  })

  it('every file of src/ is in a layer folder, or is a package entry point at the top of src/', () => {
    expect(sources.filter((file) => layerOf(file).rank < 0)).toEqual([])
    const entries = sources.filter((file) => layerOf(file).name === 'entry')
    expect(entries.sort()).toEqual(['src/index.ts', 'src/plugin.ts', 'src/reporter.ts', 'src/solution.ts'])
  })

  it('no file of src/ imports a file of a higher layer', () => {
    const upward: string[] = []
    for (const [file, edges] of graph) {
      for (const { target } of edges) {
        if (!target.startsWith('src/')) continue
        const [from, to] = [layerOf(file), layerOf(target)]
        if (to.rank > from.rank) upward.push(`${file} (${from.name}) imports ${target} (${to.name})`)
      }
    }
    expect(upward).toEqual([])
  })

  it('no import cycle: no module reaches itself through the modules it imports', () => {
    const cycles: string[] = []
    const state = new Map<string, 'open' | 'done'>()
    const visit = (file: string, chain: string[]): void => {
      state.set(file, 'open')
      for (const { target } of graph.get(file) ?? []) {
        if (state.get(target) === 'open') cycles.push([...chain.slice(chain.indexOf(target)), target].join(' -> '))
        else if (!state.has(target) && graph.has(target)) visit(target, [...chain, target])
      }
      state.set(file, 'done')
    }
    for (const file of graph.keys()) if (!state.has(file)) visit(file, [file])
    expect(cycles).toEqual([])
  })

  it("the device host's side is imported only by itself and by the solution entry point", () => {
    const crossing: string[] = []
    for (const [file, edges] of graph) {
      if (file.startsWith('src/engine/host/') || file === 'src/solution.ts') continue
      for (const { target } of edges) if (target.startsWith('src/engine/host/')) crossing.push(`${file} imports ${target}`)
    }
    expect(crossing).toEqual([])
  })

  it('the Vitest worker loads no native library: its entry points never reach src/native/, the device host or koffi at run time', () => {
    const worker = runTimeClosure(['src/index.ts', 'src/plugin.ts', 'src/reporter.ts'])
    const native = [...worker].filter(([file]) => file === 'koffi' || file.startsWith('src/native/') || file.startsWith('src/engine/host/'))
    expect(native.map(([, chain]) => chain.join(' -> '))).toEqual([])
    // The check sees the worker's real import graph: the engine's worker side is in it.
    expect(worker.has('src/engine/worker/client.ts')).toBe(true)
  })

  it('comments cite no design document outside the repository, and every docs/ page they cite exists', () => {
    const outside: string[] = []
    const missing: string[] = []
    const files = ['src', 'cuda', 'scripts', 'problems', 'tests'].flatMap((dir) => filesUnder(dir, /\.(ts|cu|cuh|cpp|sh)$/))
    for (const file of files.filter((f) => f !== self)) {
      const text = fs.readFileSync(path.join(root, file), 'utf8')
      if (/\bDESIGN(\.md)?\s*§|\bDESIGN\.md\b/.test(text)) outside.push(file)
      for (const [page] of text.matchAll(/\bdocs\/[\w.-]+\.md\b/g)) {
        if (!fs.existsSync(path.join(root, page))) missing.push(`${file}: ${page}`)
      }
    }
    expect(outside).toEqual([])
    expect(missing).toEqual([])
  })

  it('every src/ path a comment or document cites exists', () => {
    const missing: string[] = []
    const files = [...['src', 'cuda', 'scripts', 'problems', 'tests'].flatMap((dir) => filesUnder(dir, /\.(ts|cu|cuh|cpp|sh)$/)), 'README.md', ...filesUnder('docs', /\.md$/)]
    for (const file of files.filter((f) => f !== self)) {
      const text = fs.readFileSync(path.join(root, file), 'utf8')
      for (const [cited] of text.matchAll(/(?<![\w./-])src\/[\w./-]+\.ts\b/g)) {
        if (!fs.existsSync(path.join(root, cited))) missing.push(`${file}: ${cited}`)
      }
    }
    expect(missing).toEqual([])
  })
})
