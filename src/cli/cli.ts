#!/usr/bin/env node
// The `vitest-kernel-bench` command: `init <problem> [file.cu]` writes a starter solution and its bench file;
// `init --list` lists the problems; `ceilings` measures the GPU's ceilings into the cache (or shows cached ones);
// `calibrate` measures each timing mode's offset on the GPU into the cache (or shows a cached calibration);
// `report` draws the charts of saved results files (no GPU needed); `gate` judges several runs' results files together
// against the stored baselines (no GPU needed); `ncu` times a bench file's cases with the harness
// and under Nsight Compute, side by side.
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import * as problems from '../../problems/index.js'
import { findCalibration } from '../cache/calibration-cache.js'
import { findCeilings } from '../cache/ceilings-cache.js'
import { DeviceHost } from '../engine/worker/client.js'
import type { CalibrationOutcome, DeviceReport, GpuRecord } from '../shared/messages.js'
import type { FoundRecord } from '../cache/gpu-cache.js'
import { findOnPath } from '../compile/toolkit.js'
import { ncuCalibration } from './ncu-calibration.js'
import { ncuBench } from './ncu-bench.js'
import { DEFAULT_MEASURE_OPTIONS } from '../spec/options.js'
import { DEFAULT_CACHE_DIR } from '../spec/paths.js'
import { describeCalibration } from '../report/calibration.js'
import { describeCeilings } from '../report/ceilings.js'
import { writeChartOutputs } from '../report/chart-files.js'
import { readResultsFiles } from '../report/read-results.js'
import { gate } from './gate.js'
import { resolveVerdictOptions } from '../baseline/verdict.js'
import { problemCatalog } from '../spec/problem-catalog.js'
import { listProblems, starterFiles, type StarterFile } from './starter.js'
import { didYouMean } from '../spec/suggest.js'

const USAGE = `Usage:
  vitest-kernel-bench init <problem> [file.cu] [--dtype <dtype>]   write a starter solution and its .bench.ts
  vitest-kernel-bench init --list                                 list the problems
  vitest-kernel-bench ceilings [--force] [--device <n>] [--cache-dir <dir>]
                                  measure the GPU's ceilings (cuBLAS GEMM per dtype, device-to-device copy)
                                  once and cache them, or show the cached ones; --force measures again
  vitest-kernel-bench calibrate [--force] [--device <n>] [--cache-dir <dir>]
                                  time kernels of known duration (and memory-bound ones) in every timing
                                  mode, and under ncu where it is on PATH: each mode's offset on this GPU;
                                  cached like the ceilings, --force measures again
  vitest-kernel-bench report <results.json>… [--html <file>] [--svg <dir>]
                                  draw the charts of saved results files (several on one chart) as an
                                  HTML page and/or one SVG file per chart
  vitest-kernel-bench gate <results.json>… [--root <dir>] [--tolerance <fraction>] [--confidence <fraction>]
                                  judge several runs of the benches together against the stored baselines
                                  (each case's runs on one board as one verdict); exits 1 on a regression.
                                  --root: the Vitest root the baseline files are under (default: here);
                                  by default the tolerance and confidence the runs were judged with
  vitest-kernel-bench ncu <file.bench.ts> [--bench <name>] [--ncu <path>]
                                  run the bench file with the harness, then under Nsight Compute (ncu,
                                  each timed call's kernels, caches flushed, clocks left alone), and print
                                  each case's median from both; --bench keeps the benches whose name matches
`

/** The options each command takes (--help goes with any). */
const COMMAND_OPTIONS: Record<string, readonly string[]> = {
  init: ['dtype', 'list'],
  ceilings: ['force', 'device', 'cache-dir'],
  calibrate: ['force', 'device', 'cache-dir'],
  report: ['html', 'svg'],
  gate: ['root', 'tolerance', 'confidence'],
  ncu: ['bench', 'ncu'],
}

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

/** The options of the commands that measure a record of the GPU: ceilings, calibrate. */
interface MeasureCommandOptions {
  force?: boolean
  device?: string
  'cache-dir'?: string
}

/**
 * Starts a device host, as a bench run does (same process isolation, GPU lock, cache directory and file), and runs
 * `body` with it and its GPU; closes it afterwards.
 */
async function withDeviceHost(options: MeasureCommandOptions, body: (host: DeviceHost, device: DeviceReport, cacheDir: string) => Promise<void>): Promise<void> {
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
    await body(host, status.device, cacheDir)
  } finally {
    host.close()
  }
}

/** Prints a record, and where it is cached. */
function printRecord<T extends GpuRecord>(found: FoundRecord<T>, describe: (record: T) => string[]): void {
  const file = path.relative(process.cwd(), found.file)
  process.stdout.write(`${describe(found.record).join('\n')}\n`)
  process.stdout.write(found.source === 'cache' ? `cached in ${file} (measure again with --force)\n` : `measured now, cached in ${file}\n`)
}

/** Measures the GPU's ceilings unless they are cached; prints them and where they are cached. */
function ceilings(options: MeasureCommandOptions): Promise<void> {
  return withDeviceHost(options, async (host, device, cacheDir) => {
    const measure = () => {
      process.stderr.write(`measuring the ceilings of ${device.name} (GPU ${host.config.device}); this takes a few seconds\n`)
      return host.ceilings(DEFAULT_MEASURE_OPTIONS)
    }
    const found = await findCeilings({ cacheDir, device, measure, force: options.force })
    if (!found) throw new Error('the ceilings could not be measured (see above)')
    printRecord(found, describeCeilings)
  })
}

/**
 * Times the calibration kernels in every timing mode unless a calibration is cached, and, where ncu is on PATH, has
 * Nsight Compute measure them too; prints the readings and where they are cached.
 */
function calibrate(options: MeasureCommandOptions): Promise<void> {
  return withDeviceHost(options, async (host, device, cacheDir) => {
    const measure = async (): Promise<CalibrationOutcome> => {
      process.stderr.write(`timing the calibration kernels on ${device.name} (GPU ${host.config.device}) in every timing mode\n`)
      const outcome = await host.calibration(DEFAULT_MEASURE_OPTIONS.caseTimeoutMs)
      const ncu = findOnPath('ncu')
      if (!ncu) process.stderr.write('ncu is not on PATH: no Nsight Compute readings\n')
      if (outcome.status === 'error' || !ncu) return outcome
      process.stderr.write(`measuring the calibration kernels under ${ncu}\n`)
      return { ...outcome, record: { ...outcome.record, timers: [...outcome.record.timers, ncuCalibration(ncu, host.config)] } }
    }
    const found = await findCalibration({ cacheDir, device, measure, force: options.force })
    if (!found) throw new Error('the calibration could not be measured (see above)')
    printRecord(found, describeCalibration)
  })
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
        bench: { type: 'string' },
        ncu: { type: 'string' },
        root: { type: 'string' },
        tolerance: { type: 'string' },
        confidence: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    })
  } catch (error) {
    // Node's message for an unknown option is about positionals; name the option and the one meant instead.
    const unknown = /^Unknown option '([^']+)'/.exec((error as Error).message)?.[1]
    const known = [...new Set(Object.values(COMMAND_OPTIONS).flat()), 'help'].map((o) => `--${o}`)
    throw new UsageError(unknown ? `unknown option '${unknown}'${didYouMean(unknown, known)}` : (error as Error).message)
  }
  const { values, positionals } = parsed
  if (values.help) {
    process.stdout.write(USAGE)
    return
  }
  const [command, problem, file, ...extra] = positionals
  const allowed = command === undefined ? undefined : COMMAND_OPTIONS[command]
  if (!allowed) throw new UsageError(command ? `unknown command '${command}'${didYouMean(command, Object.keys(COMMAND_OPTIONS))}` : 'no command given')
  const foreign = Object.keys(values).filter((option) => option !== 'help' && !allowed.includes(option))
  if (foreign.length > 0) {
    throw new UsageError(`${command} does not take ${foreign.map((o) => `--${o}`).join(', ')} (it takes ${allowed.map((o) => `--${o}`).join(', ')})`)
  }
  if (command === 'ceilings' || command === 'calibrate') {
    if (positionals.length > 1) throw new UsageError(`unexpected arguments: ${positionals.slice(1).join(' ')}`)
    return command === 'ceilings' ? ceilings(values) : calibrate(values)
  }
  if (command === 'report') return report(positionals.slice(1), values)
  if (command === 'gate') {
    const files = positionals.slice(1)
    if (files.length === 0) throw new UsageError('gate needs one or more results files (`KERNELBENCH_JSON=run-1.json npx vitest bench --run` writes one per run)')
    const realPath = (file: string) => (fs.existsSync(file) ? fs.realpathSync(file) : path.resolve(file))
    if (new Set(files.map(realPath)).size < files.length) throw new UsageError('gate was given one results file twice: each file must be a run of its own')
    const fraction = (name: 'tolerance' | 'confidence') => {
      const text = values[name]
      if (text === undefined) return {}
      const value = Number(text)
      if (text.trim() === '' || !Number.isFinite(value)) throw new UsageError(`--${name} must be a fraction, e.g. 0.01 (got '${text}')`)
      try {
        resolveVerdictOptions({ [name]: value })
      } catch (error) {
        throw new UsageError(`--${(error as Error).message}`)
      }
      return { [name]: value }
    }
    if (gate(files, path.resolve(values.root ?? '.'), { ...fraction('tolerance'), ...fraction('confidence') })) process.exitCode = 1
    return
  }
  if (command === 'ncu') {
    const [benchFile, ...rest] = positionals.slice(1)
    if (!benchFile || rest.length > 0) throw new UsageError('ncu takes one bench file')
    const ncu = values.ncu ?? findOnPath('ncu')
    if (!ncu) throw new Error('ncu is not on PATH: install Nsight Compute (it comes with the CUDA toolkit) or pass --ncu <path>')
    return ncuBench({ file: benchFile, bench: values.bench, ncu, cwd: process.cwd() })
  }
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
