// Harness vs Nsight Compute, per kernel and timing mode (issue 3's proof). Steps, run by ncu-compare.sh:
//   tsx scripts/ncu-compare.ts harness <out.json> [mode,…]   time every kernel through the harness, in each mode
//                                                             (or those named), with the wall time each case took
//   tsx scripts/ncu-compare.ts ncu <out.json>        run `launches` under ncu (NCU_FLAGS, as the calibration does)
//                                                    and keep each launch's gpu__time_duration.sum
//   tsx scripts/ncu-compare.ts launches [n]          run each kernel REPEATS (or n) times, for ncu to measure
//   tsx scripts/ncu-compare.ts counters <out.json>   each kernel timed with the `counters` option: its counters
//                                                    (per kernel, the aggregate, the verdict) and what they cost
//   tsx scripts/ncu-compare.ts ncu-counters <out.json>   each kernel's first launch under ncu's SpeedOfLight and
//                                                    Occupancy sections (NCU_COUNTER_FLAGS) with the counters'
//                                                    metrics, one ncu process per kernel: its figures by label
//   tsx scripts/ncu-compare.ts counters-report <counters.json> <ncu.json>   each figure beside ncu's, and the verdict
//                                                    of ncu's bottleneck rule on ncu's own figures
//   tsx scripts/ncu-compare.ts report <harness.json> <ncu.json[,ncu.json…]> [repeat.json…]   print harness / ncu per
//                                                    kernel and mode measured (ncu: the median of its processes), the
//                                                    spread of the medians of separate processes, ncu's included, and
//                                                    the median of those medians / ncu
// NCU_COMPARE_KERNELS (labels, comma-separated) limits every step to those kernels, e.g. for profiler-smoke.sh.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { PluginSettings } from '../src/vitest/plugin-settings.js'
import type { KernelBenchSpec } from '../src/vitest/resolve-spec.js'
import { runKernelBench } from '../src/vitest/run-bench.js'
import { tsxExecArgv } from '../src/engine/worker/process-entry.js'
import { summarize } from '../src/shared/stats.js'
import { spawnSync } from 'node:child_process'
import { durationsPerKernel, ncuMetricRows, runUnderNcu, type NcuKernel } from '../src/cli/ncu.js'
import { boundVerdict } from '../src/report/bound.js'
import { caseCounters, type CountersRecord } from '../src/report/counters.js'
import { COUNTER_METRICS, type CounterSet } from '../src/shared/counters.js'
import type { MeasureOptions } from '../src/spec/options.js'
import { formatTime, renderTable } from '../src/report/format.js'
import { matrixMultiplication, vectorAddition } from '../problems/index.js'
import type { TestCase } from '../src/spec/problem.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')
const settings: PluginSettings = { devices: [0], cacheDir: path.join(root, 'node_modules/.cache/vitest-kernel-bench'), measure: {} }
const REPEATS = 5
/** ncu's start, its replay of every launch, and the launches' own compiles and checks. */
const NCU_TIMEOUT_MS = 600_000

interface Kernel extends NcuKernel {
  spec: KernelBenchSpec
  /** Only in the counters step: ncu's name for it (cuBLAS's) is not one the timing steps' anchored filter can match. */
  countersOnly?: boolean
}

const vectorCase = (n: number, label: string): TestCase => ({ name: label, params: { n } })
const squareCase = (s: number): TestCase => ({ name: `${s}³`, params: { m: s, n: s, k: s } })

const KERNELS: Kernel[] = [
  ...([[2 ** 16, '64 Ki'], [2 ** 20, '1 Mi'], [2 ** 24, '16 Mi'], [2 ** 27, '128 Mi']] as const).map(([n, label]) => ({
    label: `vector add ${label} floats`,
    ncuName: 'vectorAdd4',
    spec: { problem: vectorAddition, solution: 'problems/vector-addition/solutions/vector_add.cu', cases: [vectorCase(n, label)] },
  })),
  ...[256, 1024, 4096].map((s) => ({
    label: `sgemm tiled ${s}³`,
    ncuName: 'tiledKernel',
    spec: { problem: matrixMultiplication, solution: 'problems/matrix-multiplication/solutions/sgemm_tiled.cu', cases: [squareCase(s)] },
  })),
  {
    label: 'cuBLAS sgemm 4096³',
    ncuName: 'gemm',
    countersOnly: true,
    spec: { problem: matrixMultiplication, solution: 'problems/matrix-multiplication/solutions/cublas_sgemm.ts', cases: [squareCase(4096)] },
  },
  {
    label: 'bf16 GEMM 8192³',
    ncuName: 'wmmaKernel',
    spec: {
      problem: matrixMultiplication,
      solution: 'problems/matrix-multiplication/solutions/gemm_wmma_bf16.cu',
      dtype: 'bfloat16',
      cases: [squareCase(8192)],
    },
  },
]

/** All kernels, or those NCU_COMPARE_KERNELS names, in KERNELS' order (the order ncu sees their launches in). */
function selectedKernels(): Kernel[] {
  const names = (process.env.NCU_COMPARE_KERNELS ?? '').split(',').map((name) => name.trim()).filter(Boolean)
  const unknown = names.filter((name) => !KERNELS.some((k) => k.label === name))
  if (unknown.length > 0) throw new Error(`unknown kernels ${unknown.join(', ')}: ${KERNELS.map((k) => k.label).join(', ')}`)
  return names.length === 0 ? KERNELS : KERNELS.filter((k) => names.includes(k.label))
}

/** The kernels of the timing steps (harness, ncu, report). */
const timedKernels = () => selectedKernels().filter((k) => !k.countersOnly)

const MODES: Record<string, Partial<MeasureOptions>> = {
  events: { timing: 'events', flush: 'read', padding: 'matmul' },
  'events, spin': { timing: 'events', flush: 'read', padding: 'spin' },
  'events, memset flush': { timing: 'events', flush: 'memset', padding: 'matmul' },
  cupti: { timing: 'cupti', flush: 'read', padding: 'matmul' },
  profiler: { timing: 'profiler', flush: 'read', padding: 'matmul' },
  'graph (hot)': { timing: 'graph', flush: 'read', padding: 'matmul' },
}

async function run(kernel: Kernel, mode: 'bench' | 'verify', options: Partial<MeasureOptions> = {}) {
  const result = await runKernelBench(kernel.label, { ...kernel.spec, ...options }, { file: path.join(root, 'x.bench.ts'), mode, settings })
  const c = result.cases[0]
  if (!c || c.outcome.status !== 'ok') throw new Error(`${kernel.label}: ${JSON.stringify(c?.outcome ?? result.skipped)}`)
  return c
}

type Measured = Record<string, Record<string, { median: number; cv: number; n: number; stop: string; wallMs: number }>>

async function harness(out: string, only?: string) {
  const rows: Measured = {}
  const named = only?.split(',')
  const unknown = named?.filter((mode) => !(mode in MODES)) ?? []
  if (unknown.length > 0) throw new Error(`unknown modes ${unknown.join(', ')}: ${Object.keys(MODES).join(', ')}`)
  const modes = Object.entries(MODES).filter(([mode]) => !named || named.includes(mode))
  for (const kernel of timedKernels()) {
    rows[kernel.label] = {}
    for (const [mode, options] of modes) {
      const c = await run(kernel, 'bench', options)
      const t = c.outcome.status === 'ok' ? c.outcome.timing : undefined
      rows[kernel.label]![mode] = { median: c.summary!.median, cv: c.summary!.cv, n: c.summary!.n, stop: t!.stopReason, wallMs: t!.wallMs }
      console.log(`${kernel.label} · ${mode}: ${formatTime(c.summary!.median)} ±${(c.summary!.cv * 100).toFixed(2)}% n=${c.summary!.n} ${t!.stopReason} ${t!.wallMs.toFixed(0)} ms`)
    }
  }
  fs.writeFileSync(out, JSON.stringify(rows, null, 2))
}

/** Each timed kernel REPEATS times; with `repeats` (the counters step), every kernel that many times. */
async function launches(repeats?: number) {
  for (const kernel of repeats === undefined ? timedKernels() : selectedKernels()) for (let i = 0; i < (repeats ?? REPEATS); i++) await run(kernel, 'verify')
}

/** ncu as issue 28 compares the counters with it: its own speed-of-light and occupancy sections, clocks left alone. */
const NCU_COUNTER_FLAGS = ['--clock-control', 'none', '--section', 'SpeedOfLight', '--section', 'Occupancy', '--section', 'LaunchStats']

interface CountedKernel {
  counters: CountersRecord
  medianMs: number
  /** The timing loop's wall time, for scale beside the counters' costMs. */
  timingMs: number
}

async function counters(out: string) {
  const rows: Record<string, CountedKernel> = {}
  for (const kernel of selectedKernels()) {
    const c = await run(kernel, 'bench', { timing: 'events', counters: true })
    const record = caseCounters(c)
    if (!record) throw new Error(`${kernel.label}: no counters in the outcome`)
    const t = c.outcome.status === 'ok' ? c.outcome.timing : undefined
    rows[kernel.label] = { counters: record, medianMs: c.summary!.median, timingMs: t!.wallMs }
    const said = record.status === 'ok' ? `${record.verdict.text}, ${record.passes} passes` : `${record.status}: ${record.reason}`
    console.log(`${kernel.label}: ${said}; counters ${record.costMs.toFixed(0)} ms, timing ${t!.wallMs.toFixed(0)} ms`)
  }
  fs.writeFileSync(out, JSON.stringify(rows, null, 2))
}

/**
 * ncu's figures for each kernel: its first launch in a process that runs that kernel alone (its solution is called
 * before its reference, and an unanchored name such as cuBLAS's 'gemm' would also match other benches' references).
 */
function ncuCounters(out: string) {
  const args = [...NCU_COUNTER_FLAGS, '--metrics', COUNTER_METRICS.join(','), '--csv', '--print-units', 'base', '--print-metric-name', 'name']
  const command = [process.execPath, ...tsxExecArgv(), fileURLToPath(import.meta.url), 'launches', '1']
  const figures: Record<string, Record<string, string>> = {}
  for (const kernel of selectedKernels()) {
    const run = spawnSync('ncu', [...args, '--target-processes', 'all', '--kernel-name', `regex:${kernel.ncuName}`, '--launch-count', '1', ...command], {
      encoding: 'utf8',
      env: { ...process.env, NCU_COMPARE_KERNELS: kernel.label },
      maxBuffer: 256 * 2 ** 20,
      timeout: NCU_TIMEOUT_MS,
    })
    if (run.error) throw run.error
    for (const line of `${run.stdout}\n${run.stderr}`.split('\n').filter((l) => /^==(ERROR|WARNING)==/.test(l))) console.error(line)
    const first = ncuMetricRows(run.stdout)[0]
    if (first) figures[kernel.label] = Object.fromEntries(first)
    console.log(`${kernel.label}: ${first ? first.get('kernel') : 'ncu profiled nothing'}`)
  }
  fs.writeFileSync(out, JSON.stringify(figures, null, 2))
}

/** Each figure of ours beside ncu's, and both verdicts. */
function countersReport(oursFile: string, ncuFile: string) {
  const ours = JSON.parse(fs.readFileSync(oursFile, 'utf8')) as Record<string, CountedKernel>
  const theirs = JSON.parse(fs.readFileSync(ncuFile, 'utf8')) as Record<string, Record<string, string>>
  const number = (text: string | undefined) => (text === undefined ? NaN : Number(text.replace(/,/g, '')))
  for (const kernel of selectedKernels()) {
    const mine = ours[kernel.label]
    const figures = theirs[kernel.label]
    if (!mine || !figures) {
      console.log(`\n${kernel.label}: ${mine ? 'no ncu row' : 'not counted'}`)
      continue
    }
    const ncu = new Map(Object.entries(figures))
    if (mine.counters.status !== 'ok') {
      console.log(`\n${kernel.label}: ${mine.counters.reason}`)
      continue
    }
    const k = mine.counters.kernels[0]!
    const ncuMetrics = Object.fromEntries(COUNTER_METRICS.map((m) => [m, number(ncu.get(m))])) as CounterSet
    const ncuWaves = number(ncu.get('launch__waves_per_multiprocessor'))
    const ncuVerdict = boundVerdict(ncuMetrics, ncuWaves)
    const rows = [
      ...COUNTER_METRICS.map((m) => [m, k.metrics[m], ncuMetrics[m]] as const),
      ['theoretical occupancy (sm__maximum_warps_per_active_cycle_pct)', k.theoreticalOccupancy.pct, number(ncu.get('sm__maximum_warps_per_active_cycle_pct'))] as const,
      ['waves (launch__waves_per_multiprocessor)', k.theoreticalOccupancy.waves, ncuWaves] as const,
    ]
    console.log(`\n${kernel.label} (${mine.counters.kernels.length} kernel, ${mine.counters.passes} passes, counters ${mine.counters.costMs.toFixed(0)} ms)`)
    console.log(`  launch: grid ${k.grid.join('×')}, block ${k.block.join('×')}, ${k.registersPerThread} registers, ${k.staticSharedBytes}+${k.dynamicSharedBytes} B shared` +
      ` (ncu: grid ${ncu.get('launch__grid_size')}, block ${ncu.get('launch__block_size')}, ${ncu.get('launch__registers_per_thread')} registers)`)
    const table = rows.map(([name, a, b]) => {
      const relative = name.startsWith('gpu__time_duration') || name.startsWith('waves') ? `${(((a - b) / b) * 100).toFixed(1)}%` : `${(a - b).toFixed(2)} pp`
      return [name, a.toFixed(2), b.toFixed(2), relative]
    })
    console.log(renderTable(['metric', 'ours', 'ncu', 'Δ'], table, ['left', 'right', 'right', 'right']).map((l) => `  ${l}`).join('\n'))
    console.log(`  verdict: ours ${mine.counters.verdict.text} [${mine.counters.verdict.rule}]; ncu's figures ${ncuVerdict.text} [${ncuVerdict.rule}]`)
  }
}

/** Runs `launches` in a process of its own under the ncu on PATH and writes its rows ([kernel name, ns] per launch). */
function underNcu(out: string) {
  const names = [...new Set(timedKernels().map((k) => k.ncuName))]
  const command = [process.execPath, ...tsxExecArgv(), fileURLToPath(import.meta.url), 'launches']
  const { rows, said } = runUnderNcu('ncu', `regex:^(${names.join('|')})`, command, NCU_TIMEOUT_MS)
  for (const line of said) console.error(line)
  fs.writeFileSync(out, JSON.stringify(rows))
}

/** (max − min) / min of the medians that separate processes measured, as a percentage. */
function spread(medians: readonly number[]): string {
  if (medians.length < 2) return '–'
  return `${(((Math.max(...medians) - Math.min(...medians)) / Math.min(...medians)) * 100).toFixed(2)}%`
}

/** The medians separate processes measured for one kernel in one mode. */
const repeatedMedians = (repeats: Measured[], label: string, mode: string) =>
  repeats.map((r) => r[label]?.[mode]?.median).filter((m): m is number => m !== undefined)

function report(harnessFile: string, ncuFiles: string, repeatFiles: string[]) {
  const measured = JSON.parse(fs.readFileSync(harnessFile, 'utf8')) as Measured
  const repeats = repeatFiles.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')) as Measured)
  const kernels = timedKernels()
  // Per kernel, the median of each ncu process.
  const ncuRuns = kernels.map(() => [] as number[])
  for (const file of ncuFiles.split(',')) {
    const perKernel = durationsPerKernel(JSON.parse(fs.readFileSync(file, 'utf8')) as Array<[string, number]>, kernels, REPEATS)
    perKernel.forEach((ms, i) => ncuRuns[i]!.push(summarize(ms).median))
  }
  const ncuMs = ncuRuns.map((medians) => summarize(medians).median)
  const modes = Object.keys(MODES).filter((m) => measured[kernels[0]!.label]?.[m])
  const repeatedModes = modes.filter((m) => repeats.some((r) => r[kernels[0]!.label]?.[m]))
  const ncuSpread = ncuRuns[0]!.length > 1 ? [`ncu: spread of ${ncuRuns[0]!.length} runs`] : []
  const header = [
    'kernel',
    'ncu',
    ...modes.flatMap((m) => [m, '×']),
    `${modes[0]} wall`,
    ...repeatedModes.flatMap((m) => [`${m}: spread of ${repeats.length} runs`, `× (median of ${repeats.length})`]),
    ...ncuSpread,
  ]
  const rows = kernels.map((kernel, i) => [
    kernel.label,
    formatTime(ncuMs[i]!),
    ...modes.flatMap((m) => {
      const h = measured[kernel.label]![m]!.median
      return [formatTime(h), (h / ncuMs[i]!).toFixed(2)]
    }),
    formatTime(measured[kernel.label]![modes[0]!]!.wallMs),
    ...repeatedModes.flatMap((m) => {
      const medians = repeatedMedians(repeats, kernel.label, m)
      // Below 10 µs one process's median moves by a few percent, ncu's too: the median of several is compared.
      return [spread(medians), medians.length > 0 ? (summarize(medians).median / ncuMs[i]!).toFixed(2) : '–']
    }),
    ...(ncuSpread.length > 0 ? [spread(ncuRuns[i]!)] : []),
  ])
  console.log(renderTable(header, rows, header.map((_, i) => (i === 0 ? 'left' : 'right'))).join('\n'))
}

const [command, a, b, ...rest] = process.argv.slice(2)
if (command === 'harness' && a) await harness(a, b)
else if (command === 'ncu' && a) underNcu(a)
else if (command === 'launches') await launches(a === undefined ? undefined : Number(a))
else if (command === 'counters' && a) await counters(a)
else if (command === 'ncu-counters' && a) ncuCounters(a)
else if (command === 'counters-report' && a && b) countersReport(a, b)
else if (command === 'report' && a && b) report(a, b, rest)
else throw new Error('usage: ncu-compare.ts harness <out.json> [mode,…] | ncu <out.json> | launches | report <harness.json> <ncu.json[,ncu.json…]> [repeat.json…]')
process.exit(0)
