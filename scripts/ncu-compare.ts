// Harness vs Nsight Compute, per kernel and timing mode (issue 3's proof). Steps, run by ncu-compare.sh:
//   tsx scripts/ncu-compare.ts harness <out.json> [mode,…]   time every kernel through the harness, in each mode
//                                                             (or those named), with the wall time each case took
//   tsx scripts/ncu-compare.ts launches              run each kernel REPEATS times, for ncu to measure
//   tsx scripts/ncu-compare.ts report <harness.json> <ncu.csv> [repeat.json…]   print harness / ncu per kernel and
//                                                    mode measured, and the spread of the medians of separate processes
// NCU_COMPARE_KERNELS (labels, comma-separated) limits every step to those kernels, e.g. for profiler-smoke.sh.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { runKernelBench, type KernelBenchSpec, type PluginSettings } from '../src/bench.js'
import { summarize } from '../src/engine/stats.js'
import type { MeasureOptions } from '../src/options.js'
import { formatTime, renderTable } from '../src/report/format.js'
import { matrixMultiplication, vectorAddition } from '../problems/index.js'
import type { TestCase } from '../src/problem.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')
const settings: PluginSettings = { devices: [0], cacheDir: path.join(root, 'node_modules/.cache/vitest-kernel-bench'), measure: {} }
const REPEATS = 5

interface Kernel {
  label: string
  /** Name of the solution's kernel, as ncu reports it. */
  ncuName: string
  spec: KernelBenchSpec
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
  for (const kernel of selectedKernels()) {
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

async function launches() {
  for (const kernel of selectedKernels()) for (let i = 0; i < REPEATS; i++) await run(kernel, 'verify')
}

/** ncu --csv rows for gpu__time_duration.sum, in launch order, as [kernel name, ns]. */
function ncuDurations(csv: string): Array<[string, number]> {
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

/** (max − min) / min of the medians that separate processes measured for one kernel in one mode. */
function spread(repeats: Measured[], label: string, mode: string): string {
  const medians = repeats.map((r) => r[label]?.[mode]?.median).filter((m): m is number => m !== undefined)
  if (medians.length < 2) return '–'
  return `${(((Math.max(...medians) - Math.min(...medians)) / Math.min(...medians)) * 100).toFixed(2)}%`
}

function report(harnessFile: string, ncuFile: string, repeatFiles: string[]) {
  const measured = JSON.parse(fs.readFileSync(harnessFile, 'utf8')) as Measured
  const repeats = repeatFiles.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')) as Measured)
  const launchesSeen = ncuDurations(fs.readFileSync(ncuFile, 'utf8'))
  const kernels = selectedKernels()
  const modes = Object.keys(MODES).filter((m) => measured[kernels[0]!.label]?.[m])
  const repeatedModes = modes.filter((m) => repeats.some((r) => r[kernels[0]!.label]?.[m]))
  const header = ['kernel', 'ncu', ...modes.flatMap((m) => [m, '×']), `${modes[0]} wall`, ...repeatedModes.map((m) => `${m}: spread of ${repeats.length} runs`)]
  const rows: string[][] = []
  let cursor = 0
  for (const kernel of kernels) {
    const mine = launchesSeen.slice(cursor, cursor + REPEATS)
    cursor += REPEATS
    if (mine.length < REPEATS || mine.some(([name]) => !name.includes(kernel.ncuName))) {
      throw new Error(`ncu launches out of step at ${kernel.label}: ${JSON.stringify(mine)}`)
    }
    const ncuMs = summarize(mine.map(([, ns]) => ns / 1e6)).median
    rows.push([
      kernel.label,
      formatTime(ncuMs),
      ...modes.flatMap((m) => {
        const h = measured[kernel.label]![m]!.median
        return [formatTime(h), (h / ncuMs).toFixed(2)]
      }),
      formatTime(measured[kernel.label]![modes[0]!]!.wallMs),
      ...repeatedModes.map((m) => spread(repeats, kernel.label, m)),
    ])
  }
  console.log(renderTable(header, rows, header.map((_, i) => (i === 0 ? 'left' : 'right'))).join('\n'))
}

const [command, a, b, ...rest] = process.argv.slice(2)
if (command === 'harness' && a) await harness(a, b)
else if (command === 'launches') await launches()
else if (command === 'report' && a && b) report(a, b, rest)
else throw new Error('usage: ncu-compare.ts harness <out.json> [mode,…] | launches | report <harness.json> <ncu.csv> [repeat.json…]')
process.exit(0)
