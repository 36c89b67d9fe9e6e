// The problems a module exports (problems/index.ts), each under all its export names: found by any of its names for
// `vitest-kernel-bench init`, and suggested where a bench names a problem that is not one. Pure.
import type { Problem } from './problem.js'
import { closest, nameKey, orList } from './suggest.js'

export interface CatalogEntry {
  readonly problem: Problem
  /** Every name the problems module exports it under, e.g. ['matmul', 'matrixMultiplication']. */
  readonly exportNames: readonly string[]
}

export function isProblem(value: unknown): value is Problem {
  if (typeof value !== 'object' || value === null) return false
  const p = value as Partial<Problem>
  return typeof p.name === 'string' && Array.isArray(p.signature) && Array.isArray(p.dtypes) && typeof p.cases === 'function' && typeof p.elements === 'function'
}

/** The problems among a module's exports, one entry per problem however many names it is exported under. */
export function problemCatalog(exports: Readonly<Record<string, unknown>>): CatalogEntry[] {
  const names = new Map<Problem, string[]>()
  for (const [exportName, value] of Object.entries(exports)) {
    if (!isProblem(value)) continue
    const list = names.get(value) ?? []
    list.push(exportName)
    names.set(value, list)
  }
  return [...names]
    .map(([problem, exportNames]) => ({ problem, exportNames: exportNames.sort() }))
    .sort((a, b) => a.problem.name.localeCompare(b.problem.name))
}

export interface FoundProblem {
  problem: Problem
  /** The export the bench file imports: the name asked for if it is one, else the one matching the problem's name. */
  importName: string
}

const spellings = (e: CatalogEntry) => [e.problem.name, ...e.exportNames]

/** The export named like the problem itself (matrixMultiplication for matrix-multiplication), else the first. */
function mainExport(entry: CatalogEntry): string {
  return entry.exportNames.find((n) => nameKey(n) === nameKey(entry.problem.name)) ?? entry.exportNames[0]!
}

/** Finds a problem by its name (Tensara's slug) or any name it is exported under, in any case and with - or _. */
export function findProblem(catalog: readonly CatalogEntry[], name: string): FoundProblem {
  const key = nameKey(name)
  const matches = catalog.filter((e) => spellings(e).some((n) => nameKey(n) === key))
  const entry = matches[0]
  if (!entry) throw new Error(unknownProblemMessage(catalog, name))
  if (matches.length > 1) throw new Error(`'${name}' names several problems: ${matches.map((e) => e.problem.name).join(', ')}`)
  return { problem: entry.problem, importName: entry.exportNames.find((n) => n === name) ?? mainExport(entry) }
}

/** "Did you mean" the closest names, or else every problem's name on one line: the full table is `init --list`. */
function unknownProblemMessage(catalog: readonly CatalogEntry[], name: string): string {
  const similar = closest(name, catalog, spellings).map((e) => e.problem.name)
  const list = similar.length > 0 ? `Did you mean ${orList(similar.map((n) => `'${n}'`))}?` : `The problems are: ${catalog.map((e) => e.problem.name).join(', ')}.`
  return `unknown problem '${name}'. ${list} (\`vitest-kernel-bench init --list\` describes all ${catalog.length})`
}

/**
 * What a bench should import for a problem it names by a string: "did you mean 'matrix-multiplication' (import {
 * matmul })?", or "the problems are: …" where no name is close.
 */
export function problemSuggestion(catalog: readonly CatalogEntry[], name: string): string {
  const exact = catalog.filter((e) => spellings(e).some((n) => nameKey(n) === nameKey(name)))
  const similar = exact.length > 0 ? exact : closest(name, catalog, spellings).slice(0, 3)
  if (similar.length === 0) return `the problems are: ${catalog.map((e) => e.problem.name).join(', ')}`
  // The export spelled most like the name given: 'matmull' was meant to be matmul, not matrixMultiplication.
  const importName = (e: CatalogEntry) => closest(name, e.exportNames)[0] ?? mainExport(e)
  return `did you mean ${orList(similar.map((e) => `'${e.problem.name}' (import { ${importName(e)} })`))}?`
}
