// Without a GPU a TypeScript solution is type-checked with the project's own compiler and imported in a process of
// its own (src/vitest/compile-bench.ts checkModuleSolution): errors at the solution's line, a missing export named.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { checkModuleSolution } from '../../src/vitest/compile-bench.js'
import { scratchFolder } from '../helpers/scratch.js'

const here = fileURLToPath(import.meta.url)
const fixtures = path.resolve(path.dirname(here), '../fixtures/ts-solutions')
const CHECK_TIMEOUT_MS = 60_000

describe('checkModuleSolution', () => {
  it('passes a solution that type-checks and exports defineSolution(...)', async () => {
    await expect(checkModuleSolution(path.join(fixtures, 'good.ts'), here)).resolves.toBe('solution imported and type-checked')
  }, CHECK_TIMEOUT_MS)

  it('fails a type error at its file and line', async () => {
    const file = path.join(fixtures, 'type_error.ts')
    const error = checkModuleSolution(file, here)
    await expect(error).rejects.toThrow(`TypeScript found errors in ${file}:6\n  ${file}:6: TS2322: Type 'bigint' is not assignable to type 'number'.`)
    await expect(error).rejects.toMatchObject({ name: 'TypeCheckError' })
  }, CHECK_TIMEOUT_MS)

  it('fails a module without the default export, saying what it exports instead', async () => {
    const file = path.join(fixtures, 'no_default.ts')
    const error = checkModuleSolution(file, here)
    await expect(error).rejects.toThrow(`importing the solution failed: ${file}: it has no default export. Expected:\n  export default defineSolution(`)
    await expect(error).rejects.toMatchObject({ name: 'SolutionImportError' })
  }, CHECK_TIMEOUT_MS)

  it('says why it did not type-check where the bench has no typescript package, and imports the module still', async () => {
    const bench = path.join(scratchFolder('kb-module-check-'), 'a.bench.ts')
    fs.writeFileSync(bench, '')
    await expect(checkModuleSolution(path.join(fixtures, 'good.ts'), bench)).resolves.toBe(
      "solution imported, not type-checked (no 'typescript' package is installed for a.bench.ts)",
    )
  }, CHECK_TIMEOUT_MS)
})
