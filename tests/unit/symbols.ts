// Dynamic symbols a shared library defines (nm -D), to check which entry points a build exports.
import { execFileSync } from 'node:child_process'

export function definedSymbols(library: string): string[] {
  return execFileSync('nm', ['-D', '--defined-only', library], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/).at(-1) ?? '')
    .filter(Boolean)
}
