// Nsight Compute as the harness compares with it: each kernel's gpu__time_duration.sum with its own cache flush and
// the clocks left alone, read from ncu's CSV. Used by the `calibrate` command (src/cli/ncu-calibration.ts) and by
// scripts/ncu-compare.ts.
import { spawnSync } from 'node:child_process'

/** What ncu measures: one metric per kernel, caches flushed before each, clocks as they are, CSV in base units. */
export const NCU_FLAGS = [
  '--clock-control',
  'none',
  '--cache-control',
  'all',
  '--metrics',
  'gpu__time_duration.sum',
  '--csv',
  '--print-units',
  'base',
] as const

/** ncu --csv rows for gpu__time_duration.sum, in launch order, as [kernel name, ns]. */
export function ncuDurations(csv: string): Array<[string, number]> {
  const lines = csv.split('\n').filter((l) => l.startsWith('"'))
  const header = lines.shift()?.slice(1, -1).split('","') ?? []
  const nameAt = header.indexOf('Kernel Name')
  const valueAt = header.indexOf('Metric Value')
  const unitAt = header.indexOf('Metric Unit')
  return lines.map((l) => {
    const cells = l.slice(1, -1).split('","')
    const scale = { ns: 1, nsecond: 1, us: 1e3, usecond: 1e3, ms: 1e6, msecond: 1e6 }[cells[unitAt] ?? 'ns'] ?? 1
    return [cells[nameAt] ?? '', Number((cells[valueAt] ?? '').replace(/,/g, '')) * scale]
  })
}

/** A kernel a process launched a fixed number of times in a row, under ncu. */
export interface NcuKernel {
  label: string
  /** Name of its kernel function, as ncu reports it (a part of ncu's 'Kernel Name' is enough). */
  ncuName: string
}

/**
 * Each kernel's durations (ms), from ncu's rows (ncuDurations) of a process that launched every kernel `repeats`
 * times, in the order of `kernels`. Rows that do not line up with the kernels fail, naming the first that does not.
 */
export function durationsPerKernel(rows: ReadonlyArray<[string, number]>, kernels: readonly NcuKernel[], repeats: number): number[][] {
  if (rows.length !== kernels.length * repeats) {
    throw new Error(`ncu measured ${rows.length} launches, expected ${kernels.length} kernels × ${repeats}`)
  }
  return kernels.map((kernel, i) => {
    const mine = rows.slice(i * repeats, (i + 1) * repeats)
    if (mine.some(([name]) => !name.includes(kernel.ncuName))) {
      throw new Error(`ncu launches out of step at ${kernel.label}: ${JSON.stringify(mine)}`)
    }
    return mine.map(([, ns]) => ns / 1e6)
  })
}

/** The lines of ncu's output in which it reported an error or a warning. */
export function ncuSaid(output: string): string[] {
  return output.split('\n').filter((line) => /^==(ERROR|WARNING)==/.test(line))
}

/** What ncu measured (ncuDurations), and the lines in which it reported an error or a warning. */
export interface NcuRun {
  rows: Array<[string, number]>
  said: string[]
}

/**
 * Runs `command` under ncu (NCU_FLAGS), measuring the kernels `kernelName` matches (ncu's --kernel-name, e.g.
 * 'regex:^calibration'), killed after `timeoutMs`. Throws when ncu cannot start or exits with an error, with what it
 * said. A run that may not profile (no access to the performance counters) can still exit with 0: its rows are then
 * missing.
 */
export function runUnderNcu(ncu: string, kernelName: string, command: readonly string[], timeoutMs: number): NcuRun {
  const run = spawnSync(ncu, [...NCU_FLAGS, '--target-processes', 'all', '--kernel-name', kernelName, ...command], {
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
    timeout: timeoutMs,
  })
  if (run.error) throw new Error(`could not run ${ncu}: ${run.error.message}`)
  const said = ncuSaid(`${run.stdout}\n${run.stderr}`)
  if (run.status !== 0) throw new Error(`${ncu} exited with ${run.status ?? run.signal}${said.length > 0 ? `: ${said.join(' ')}` : ''}`)
  return { rows: ncuDurations(run.stdout), said }
}

/**
 * ncu's CSV with --print-metric-name name (one row per kernel and metric): the value of each metric, by ncu's name,
 * of each profiled kernel in launch order, with its name under 'kernel'.
 */
export function ncuMetricRows(csv: string): Map<string, string>[] {
  const rows = csv
    .split('\n')
    .filter((line) => line.startsWith('"'))
    .map((line) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!))
  const [header, ...body] = rows
  if (!header) return []
  const [id, kernelName, metric, value] = ['ID', 'Kernel Name', 'Metric Name', 'Metric Value'].map((name) => header.indexOf(name))
  const kernels = new Map<string, Map<string, string>>()
  for (const row of body) {
    const kernel = kernels.get(row[id!]!) ?? new Map([['kernel', row[kernelName!]!]])
    kernel.set(row[metric!]!, row[value!]!)
    kernels.set(row[id!]!, kernel)
  }
  return [...kernels.values()]
}
