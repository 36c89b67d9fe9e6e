// Temporary folders for tests, each removed once its tests are done, so no run leaves files in the system temp folder.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'

/** A new folder in the system temp folder, named `prefix` and a random suffix. */
export function makeScratch(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix))
}

export function removeScratch(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true })
}

/** A folder made now (at collection) and removed after the enclosing suite's (or file's) tests. */
export function scratchFolder(prefix: string): string {
  const dir = makeScratch(prefix)
  afterAll(() => removeScratch(dir))
  return dir
}

/**
 * A folder for the enclosing suite's (or file's) tests, read through the returned getter: a fresh one for each test
 * with 'each', one for them all with 'all'. Made in a before hook, so a skipped suite makes none.
 */
export function useScratch(prefix: string, scope: 'each' | 'all' = 'each'): () => string {
  let dir: string | undefined
  const [before, after] = scope === 'each' ? [beforeEach, afterEach] : [beforeAll, afterAll]
  before(() => {
    dir = makeScratch(prefix)
  })
  after(() => {
    if (dir !== undefined) removeScratch(dir)
    dir = undefined
  })
  return () => {
    if (dir === undefined) throw new Error(`the scratch folder ${prefix}* is read outside its tests`)
    return dir
  }
}
