#!/usr/bin/env node
// The `vitest-kernel-bench` command: `init <problem> [file.cu]` writes a starter solution and its bench file;
// `init --list` lists the problems; `ceilings` measures the GPU's ceilings into the cache (or shows cached ones);
// `report` draws the charts of saved results files (no GPU needed).
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import * as problems from '../problems/index.js'
import { findCeilings } from './ceilings-cache.js'
import { DeviceHost } from './engine/client.js'
import { DEFAULT_MEASURE_OPTIONS } from './options.js'
import { DEFAULT_CACHE_DIR } from './paths.js'
import { describeCeilings } from './report/ceilings.js'
import { writeChartOutputs } from './report/chart-files.js'
import { readResultsFiles } from './report/read-results.js'
import { listProblems, problemCatalog, starterFiles, type StarterFile } from './starter.js'

const USAGE = `Usage:
  vitest-kernel-bench init <problem> [file.cu] [--dtype <dtype>]   write a starter solution and its .bench.ts
  vitest-kernel-bench init --list                                 list the problems
  vitest-kernel-bench ceilings [--force] [--device <n>] [--cache-dir <dir>]
                                  measure the GPU's ceilings (cuBLAS GEMM per dtype, device-to-device copy)
                                  once and cache them, or show the cached ones; --force measures again
  vitest-kernel-bench report <results.json>… [--html <file>] [--svg <dir>]
                                  draw the charts of saved results files (several on one chart) as an
                                  HTML page and/or one SVG file per chart
`

/** The options each command takes (--help goes with any). */
const COMMAND_OPTIONS: Record<string, readonly string[]> = { init: ['dtype', 'list'], ceilings: ['force', 'device', 'cache-dir'], report: ['html', 'svg'] }

class UsageError extends Error {}

/** Writes every file or none: an existing file is never overwritten. */
function writeNewFiles(files: readonly StarterFile[]): void {
  const existing = files.filter((f) => fs.existsSync(f.path))
  if (existing.length > 0) {
    throw new Error(`refusing to overwrite ${existing.map((f) => f.path).join(' and ')}: choose another file name, or remove it first`)
  }
  for (const file of files) {
    fs.mkdirSync(path.dirname(file.path), { recursive: true })
    fs.writeFileSync(file.path, file.content, { flag: 'wx' })
  }
}

interface CeilingsOptions {
  force?: boolean
  device?: string
  'cache-dir'?: string
}

/**
 * Starts a device host, as a bench run does (same process isolation, GPU lock, cache directory and file), and asks
 * it for the ceilings unless they are cached; prints them and where they are cached.
 */
async function ceilings(options: CeilingsOptions): Promise<void> {
  const deviceText = options.device ?? process.env.KERNELBENCH_DEVICE ?? '0'
  const device = Number(deviceText)
  if (!Number.isInteger(device) || device < 0 || deviceText.trim() === '') {
    throw new UsageError(`--device must be a CUDA device index (got '${deviceText}')`)
  }
  // Relative to the working directory, as the plugin's cacheDir is to the project root.
  const cacheDir = path.resolve(options['cache-dir'] ?? DEFAULT_CACHE_DIR)
  const host = new DeviceHost({ device, cacheDir })
  try {
    const status = await host.ready()
    if (!status.available) throw new Error(`no usable CUDA GPU: ${status.reason}`)
    const measure = () => {
      process.stderr.write(`measuring the ceilings of ${status.device.name} (GPU ${device}); this takes a few seconds\n`)
      return host.ceilings(DEFAULT_MEASURE_OPTIONS)
    }
    const found = await findCeilings({ cacheDir, device: status.device, measure, force: options.force })
    if (!found) throw new Error('the ceilings could not be measured (see above)')
    const file = path.relative(process.cwd(), found.file)
    process.stdout.write(`${describeCeilings(found.record).join('\n')}\n`)
    process.stdout.write(found.source === 'cache' ? `cached in ${file} (measure again with --force)\n` : `measured now, cached in ${file}\n`)
  } finally {
    host.close()
  }
}

/** Renders saved results files; paths relative to the working directory. */
function report(files: readonly string[], outputs: { html?: string; svg?: string }): void {
  if (files.length === 0) throw new UsageError('report needs one or more results files (the `json` option of the plugin writes one)')
  if (!outputs.html && !outputs.svg) throw new UsageError('report needs --html <file>, --svg <dir> or both')
  const sources = readResultsFiles(files.map((file) => path.resolve(file)))
  const written = writeChartOutputs(sources, { html: outputs.html && path.resolve(outputs.html), svg: outputs.svg && path.resolve(outputs.svg) })
  for (const file of written) process.stdout.write(`written: ${path.relative(process.cwd(), file)}\n`)
}

async function main(argv: readonly string[]): Promise<void> {
  let parsed
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        dtype: { type: 'string' },
        list: { type: 'boolean' },
        force: { type: 'boolean' },
        device: { type: 'string' },
        'cache-dir': { type: 'string' },
        html: { type: 'string' },
        svg: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
  const { values, positionals } = parsed
  if (values.help) {
    process.stdout.write(USAGE)
    return
  }
  const [command, problem, file, ...extra] = positionals
  const allowed = command === undefined ? undefined : COMMAND_OPTIONS[command]
  if (!allowed) throw new UsageError(command ? `unknown command '${command}'` : 'no command given')
  const foreign = Object.keys(values).filter((option) => option !== 'help' && !allowed.includes(option))
  if (foreign.length > 0) throw new UsageError(`${command} does not take ${foreign.map((o) => `--${o}`).join(', ')}`)
  if (command === 'ceilings') {
    if (positionals.length > 1) throw new UsageError(`unexpected arguments: ${positionals.slice(1).join(' ')}`)
    return ceilings(values)
  }
  if (command === 'report') return report(positionals.slice(1), values)
  const catalog = problemCatalog(problems)
  if (values.list) {
    process.stdout.write(listProblems(catalog))
    return
  }
  if (!problem) throw new UsageError('init needs a problem name (see `vitest-kernel-bench init --list`)')
  if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`)

  const files = starterFiles(catalog, { problem, file, dtype: values.dtype, cwd: process.cwd() })
  writeNewFiles(files)
  for (const f of files) process.stdout.write(`created ${path.relative(process.cwd(), f.path)}\n`)
  process.stdout.write(`run it: npx vitest bench --run ${path.relative(process.cwd(), files[1]!.path)}\n`)
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`vitest-kernel-bench: ${(error as Error).message}\n`)
  if (error instanceof UsageError) process.stderr.write(USAGE)
  process.exitCode = error instanceof UsageError ? 2 : 1
})
