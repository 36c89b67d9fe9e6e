// What a shared library exports and links against, to check a build: its defined dynamic symbols (nm -D), the
// harness's own `kb_` entry points among them, and its dynamic section (readelf -d: NEEDED libraries, run path).
import { execFileSync } from 'node:child_process'

export function definedSymbols(library: string): string[] {
  return execFileSync('nm', ['-D', '--defined-only', library], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/).at(-1) ?? '')
    .filter(Boolean)
}

/** The `kb_` entry points a library exports, sorted. */
export function exportedEntryPoints(library: string): string[] {
  return definedSymbols(library)
    .filter((name) => name.startsWith('kb_'))
    .sort()
}

export function dynamicSection(library: string): string {
  return execFileSync('readelf', ['-d', library], { encoding: 'utf8' })
}
