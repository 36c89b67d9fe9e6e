// The checks the measuring commands (ceilings, calibrate) share, run through the CLI.
import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { runCli } from './cli.js'
import { gpu } from './gpu.js'
import { makeScratch, removeScratch } from './scratch.js'

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

/**
 * The suite of a measuring command: it refuses each of `refusals` ([arguments, message]) with its usage, and, where no
 * GPU is usable, says why and measures nothing, run with `args`.
 */
export function describeMeasuringCommand(
  command: string,
  spec: { refusals: [string[], string][]; withoutGpu: string; args: (cacheDir: string) => string[] },
): void {
  describe(`the CLI: vitest-kernel-bench ${command}`, () => {
    it.each(spec.refusals)('refuses %j with the usage and exit code 2', (args, message) => {
      expectUsageError(args, message, `vitest-kernel-bench ${command} [--force] [--device <n>] [--cache-dir <dir>]`)
    })

    it.skipIf(gpu.available)(gpu.available ? spec.withoutGpu : `${spec.withoutGpu} (${gpu.reason})`, () => {
      expectNothingMeasuredWithoutGpu(spec.args)
    })
  })
}
