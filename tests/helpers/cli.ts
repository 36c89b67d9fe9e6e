// Runs the package's CLI from source, as the CLI tests do, and the checks the measuring commands (ceilings,
// calibrate) share.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { expect } from 'vitest'
import { PACKAGE_ROOT } from '../../src/spec/paths.js'
import { makeScratch, removeScratch } from './scratch.js'

export function runCli(...args: string[]) {
  return spawnSync('npx', ['tsx', 'src/cli/cli.ts', ...args], { cwd: PACKAGE_ROOT, encoding: 'utf8' })
}

/** The command is refused with exit code 2, the message and the command's usage line. */
export function expectUsageError(args: readonly string[], message: string, usage: string): void {
  const result = runCli(...args)
  expect(result.status).toBe(2)
  expect(result.stderr).toContain(`vitest-kernel-bench: ${message}`)
  expect(result.stderr).toContain(usage)
}

/** Without a GPU, a measuring command exits 1 saying why, and caches nothing in the cache folder it is given. */
export function expectNothingMeasuredWithoutGpu(args: (cacheDir: string) => string[]): void {
  const cacheDir = makeScratch('kb-cli-')
  try {
    const result = runCli(...args(cacheDir))
    expect(result.status).toBe(1)
    expect(result.stderr).toContain('vitest-kernel-bench: no usable CUDA GPU: ')
    expect(fs.readdirSync(cacheDir)).toEqual([])
  } finally {
    removeScratch(cacheDir)
  }
}
