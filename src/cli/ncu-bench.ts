// The `ncu` command: a bench file's cases timed by the harness and by Nsight Compute, side by side. The file runs twice:
// once as `vitest bench --run` does (the harness's medians, from its JSON), once under ncu with every timed call inside
// NVTX ranges (`nvtxRanges`), so that ncu measures only the solution's kernels, call by call.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { formatTime, renderTable } from '../report/format.js'
import type { ResultsFile } from '../report/json.js'
import { quantile } from '../shared/stats.js'
import { NCU_FLAGS, ncuDurations, ncuSaid } from './ncu.js'

/** Timed calls per case under ncu: each is profiled on its own, with its caches flushed, so a few are enough. */
const NCU_CALLS = 10
/** The outer NVTX range of every timed call (src/engine/host/timers.ts): what ncu is told to measure inside. */
const NVTX_RANGE = 'kernel-bench'
/**
 * A kernel's name as ncu prints it renamed (--print-nvtx-rename kernel): '<inner range>/<kernel>', where the inner range
 * names the call, '<bench> · <case> #<n>'.
 */
const CALL_NAME = /^(.+?) #(\d+)(?:\/.*)?$/s

/** The flags after NCU_FLAGS: child processes (Vitest's workers, their device hosts), only kernels in the harness's ranges, named by the inner range. */
export const NCU_RANGE_FLAGS = ['--target-processes', 'all', '--nvtx', '--nvtx-include', `${NVTX_RANGE}/`, '--print-nvtx-rename', 'kernel'] as const

/** The environment of the run under ncu: events timing (CUPTI is ncu's), no stream audit, NCU_CALLS calls per case. */
export const UNDER_NCU_ENV = {
  KERNELBENCH_NVTX_RANGES: '1',
  KERNELBENCH_AUDIT_STREAMS: '0',
  KERNELBENCH_TIMING: 'events',
  KERNELBENCH_MIN_ITERATIONS: String(NCU_CALLS),
  KERNELBENCH_MAX_ITERATIONS: String(NCU_CALLS),
  KERNELBENCH_MIN_TIME_MS: '0',
  KERNELBENCH_LONG_KERNEL_MIN_TIME_MS: '0',
} as const

/** ncu's time of one case: the median over its calls of each call's kernels summed, and how many calls it saw. */
export interface NcuCaseTime {
  medianMs: number
  calls: number
}

/**
 * ncu's rows (kernel names renamed after the inner NVTX range, '<bench> · <case> #<n>/<kernel>') per case: each call's
 * kernels summed, then the median over the calls. Rows of other names (no range) are left out.
 */
export function ncuTimesByCase(rows: ReadonlyArray<[string, number]>): Map<string, NcuCaseTime> {
  const calls = new Map<string, Map<string, number>>()
  for (const [name, ns] of rows) {
    const match = CALL_NAME.exec(name.trim())
    if (!match) continue
    const [, label, call] = match as unknown as [string, string, string]
    const perCall = calls.get(label) ?? new Map<string, number>()
    perCall.set(call, (perCall.get(call) ?? 0) + ns / 1e6)
    calls.set(label, perCall)
  }
  return new Map([...calls].map(([label, perCall]) => [label, { medianMs: quantile([...perCall.values()].sort((a, b) => a - b), 0.5), calls: perCall.size }]))
}

/** The harness's median per case, keyed '<bench> · <case>' as the NVTX ranges name them. */
export function harnessTimesByCase(results: ResultsFile): Map<string, number> {
  const times = new Map<string, number>()
  for (const { result } of results.benches) {
    for (const c of result?.cases ?? []) {
      if (c.summary) times.set(`${result!.bench} · ${c.name}`, c.summary.median)
    }
  }
  return times
}

/** The table printed at the end: every case either side timed, with the harness's median over ncu's. */
export function ncuComparisonTable(harness: ReadonlyMap<string, number>, ncu: ReadonlyMap<string, NcuCaseTime>): string[] {
  const labels = [...new Set([...harness.keys(), ...ncu.keys()])]
  const rows = labels.map((label) => {
    const ours = harness.get(label)
    const theirs = ncu.get(label)
    return [
      label,
      ours === undefined ? '—' : formatTime(ours),
      theirs === undefined ? '—' : formatTime(theirs.medianMs),
      ours === undefined || theirs === undefined ? '—' : (ours / theirs.medianMs).toFixed(3),
      theirs === undefined ? '0' : String(theirs.calls),
    ]
  })
  return renderTable(['case', 'harness', 'ncu', 'harness / ncu', 'ncu calls'], rows, ['left', 'right', 'right', 'right', 'right'])
}

/** Vitest's entry point as the project in `cwd` resolves it (the same Vitest `npx vitest` runs). */
function vitestEntry(cwd: string): string {
  try {
    const manifest = createRequire(path.join(cwd, 'package.json')).resolve('vitest/package.json')
    return path.join(path.dirname(manifest), 'vitest.mjs')
  } catch {
    throw new Error(`vitest is not installed in ${cwd}: run the command from the project's root, after npm install`)
  }
}

export interface NcuBenchOptions {
  /** The bench file, as `vitest bench` takes it. */
  file: string
  /** Only the benches whose name matches (Vitest's -t). */
  bench?: string
  /** The ncu executable. */
  ncu: string
  cwd: string
}

/** Runs the bench file as `vitest bench --run` does, then under ncu, and prints both times of every case. */
export function ncuBench({ file, bench, ncu, cwd }: NcuBenchOptions): void {
  const vitest = [process.execPath, vitestEntry(cwd), 'bench', '--run', file, ...(bench ? ['-t', bench] : [])]
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kernel-bench-ncu-'))
  try {
    const harnessJson = path.join(dir, 'harness.json')
    process.stderr.write(`timing ${file} with the harness\n`)
    const plain = spawnSync(vitest[0]!, vitest.slice(1), { cwd, stdio: 'inherit', env: { ...process.env, KERNELBENCH_JSON: harnessJson } })
    if (!fs.existsSync(harnessJson)) throw new Error(`the harness's run of ${file} wrote no results (exit ${plain.status ?? plain.signal})`)
    const harness = harnessTimesByCase(JSON.parse(fs.readFileSync(harnessJson, 'utf8')) as ResultsFile)

    const log = path.join(dir, 'ncu.csv')
    process.stderr.write(`timing ${file} under ${ncu} (about ${NCU_CALLS} calls per case, each profiled alone)\n`)
    const env = { ...process.env, ...UNDER_NCU_ENV, KERNELBENCH_JSON: path.join(dir, 'under-ncu.json'), NO_COLOR: '1' }
    const profiled = spawnSync(ncu, [...NCU_FLAGS, ...NCU_RANGE_FLAGS, '--log-file', log, ...vitest], { cwd, env, encoding: 'utf8', maxBuffer: 256 * 2 ** 20 })
    if (profiled.error) throw new Error(`could not run ${ncu}: ${profiled.error.message}`)
    const csv = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : ''
    const ncuTimes = ncuTimesByCase(ncuDurations(csv))
    process.stdout.write(`\n${ncuComparisonTable(harness, ncuTimes).join('\n')}\n`)
    process.stdout.write(`ncu: ${[ncu, ...NCU_FLAGS, ...NCU_RANGE_FLAGS].join(' ')} …; harness: vitest bench --run (its own timing options)\n`)
    if (ncuTimes.size === 0) {
      const said = ncuSaid(csv)
      const tail = `${profiled.stdout}${profiled.stderr}`.trimEnd().split('\n').slice(-20).join('\n')
      throw new Error(
        `ncu measured no kernel inside the harness's ranges (exit ${profiled.status ?? profiled.signal})` +
          `${said.length > 0 ? `; ncu said: ${said.join(' ')}` : ''}\nthe end of the run under ncu:\n${tail}`,
      )
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
