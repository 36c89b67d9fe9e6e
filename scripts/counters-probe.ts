// The counters read in process against Nsight Compute's, per kernel (issue 28's experiment). Steps:
//   tsx scripts/counters-probe.ts compile            builds the kernels and shims for the H100 (sm_90a), no GPU needed
//   tsx scripts/counters-probe.ts                    counts one call of each kernel in this process: a JSON line each
//   tsx scripts/counters-probe.ts metrics            prints COUNTER_METRICS comma-separated, for ncu's --metrics
//   tsx scripts/counters-probe.ts launches           launches each kernel once, for ncu to profile:
//     ncu --clock-control none --section SpeedOfLight --section Occupancy --metrics "$(… metrics)" \
//         --print-metric-name name --print-units base --csv npx tsx scripts/counters-probe.ts launches > ncu.csv
//   tsx scripts/counters-probe.ts compare <probe.jsonl> <ncu.csv>   prints each figure beside ncu's
// KB_PROBE_CACHE: the compile cache (default node_modules/.cache/vitest-kernel-bench); KB_PROBE_KERNEL=i counts
// the i-th kernel alone.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import koffi from 'koffi'
import { compileCuptiShim, compileRangeProfilerShim } from '../src/compile/cupti-shim.js'
import { archForComputeCapability, compileSync } from '../src/compile/nvcc.js'
import { ncuMetricRows } from '../src/cli/ncu.js'
import { countCall } from '../src/native/counters.js'
import { COUNTER_METRICS, type KernelCounters } from '../src/shared/counters.js'
import * as cuda from '../src/native/cuda.js'
import { Cupti } from '../src/native/cupti.js'
import { RangeProfiler } from '../src/native/range-profiler.js'
import { aggregateCounters, boundVerdict } from '../src/report/bound.js'
import { theoreticalOccupancy } from '../src/report/occupancy.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const cacheDir = process.env.KB_PROBE_CACHE ?? path.join(root, 'node_modules/.cache/vitest-kernel-bench')
const VECTOR = 2 ** 25
const SQUARE = 4096
const CHAIN_STEPS = 1 << 16

interface Kernel {
  label: string
  source: string
  prototype: string
  args: (buffers: readonly bigint[]) => unknown[]
}

const KERNELS: Kernel[] = [
  {
    label: 'vector add 2^25 floats',
    source: 'problems/vector-addition/solutions/vector_add.cu',
    prototype: 'void solution(void *a, void *b, void *c, size_t n)',
    args: ([a, b, c]) => [a, b, c, VECTOR],
  },
  {
    label: `sgemm tiled ${SQUARE}³`,
    source: 'problems/matrix-multiplication/solutions/sgemm_tiled.cu',
    prototype: 'void solution(void *a, void *b, void *c, size_t m, size_t n, size_t k)',
    args: ([a, b, c]) => [a, b, c, SQUARE, SQUARE, SQUARE],
  },
  {
    label: 'dependent FMA chain, one warp',
    source: 'scripts/counters-probe.cu',
    prototype: 'void solution(void *out, size_t steps)',
    args: ([a]) => [a, CHAIN_STEPS],
  },
]

/** All kernels, or the one KB_PROBE_KERNEL names by its index. */
function selected(): Kernel[] {
  const only = process.env.KB_PROBE_KERNEL
  return only === undefined ? KERNELS : [KERNELS[Number(only)]!]
}

const build = { arch: archForComputeCapability('9.0'), cacheDir }

function compileAll() {
  return {
    calls: KERNELS.map((k) => {
      const lib = koffi.load(compileSync({ source: path.join(root, k.source), ...build }).path)
      const fn = lib.func(k.prototype)
      return (buffers: readonly bigint[]) => fn(...k.args(buffers))
    }),
    rangeProfiler: compileRangeProfilerShim(build).path,
    cupti: compileCuptiShim(build).path,
  }
}

/** Three buffers as large as the largest input, filled with a small non-zero float (bytes 0x3c). */
function buffers(): bigint[] {
  const bytes = Math.max(VECTOR, SQUARE * SQUARE) * 4
  return [0, 1, 2].map(() => {
    const buffer = cuda.malloc(bytes)
    cuda.memsetAsync(buffer, 0x3c, bytes)
    return buffer
  })
}

function count() {
  const built = compileAll()
  cuda.setDevice(0)
  const data = buffers()
  for (const call of built.calls) call(data) // loads each module outside any session
  cuda.synchronize()
  const limits = cuda.smLimits(0)
  const profiler = new RangeProfiler(built.rangeProfiler)
  const cupti = new Cupti(built.cupti)
  selected().forEach((kernel) => {
    const started = performance.now()
    const { kernels, passes } = countCall(profiler, cupti, 0, () => built.calls[KERNELS.indexOf(kernel)]!(data))
    const wallMs = performance.now() - started
    const perKernel = kernels.map((k) => ({ ...k, occupancy: theoreticalOccupancy(k, limits) }))
    const total = aggregateCounters(kernels, limits)
    console.log(JSON.stringify({ label: kernel.label, passes, wallMs, kernels: perKernel, verdict: boundVerdict(total.metrics, total.waves), total }))
  })
}

function launches() {
  const built = compileAll()
  cuda.setDevice(0)
  const data = buffers()
  for (const call of built.calls) call(data)
  cuda.synchronize()
}

const readNcu = (file: string) => ncuMetricRows(fs.readFileSync(file, 'utf8'))

function compare(probeFile: string, ncuFile: string) {
  const ncu = readNcu(ncuFile)
  const probes = fs.readFileSync(probeFile, 'utf8').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l))
  const ours: (KernelCounters & { label: string; occupancy: { pct: number; waves: number } })[] = probes.flatMap((p) =>
    p.kernels.map((k: object) => ({ ...k, label: p.label })),
  )
  const number = (text: string | undefined) => (text === undefined ? NaN : Number(text.replace(/,/g, '')))
  ours.forEach((k, i) => {
    const theirs = ncu[i] ?? new Map<string, string>()
    console.log(`\n${k.label}: ${k.name}  (ncu: ${theirs.get('kernel')})`)
    console.log(`  grid ${k.grid.join('×')}, block ${k.block.join('×')}, ${k.registersPerThread} registers, ${k.staticSharedBytes}+${k.dynamicSharedBytes} B shared` +
      `  (ncu: grid ${theirs.get('launch__grid_size')}, block ${theirs.get('launch__block_size')}, ${theirs.get('launch__registers_per_thread')} registers, ` +
      `${theirs.get('launch__shared_mem_per_block_static')}+${theirs.get('launch__shared_mem_per_block_dynamic')} shared)`)
    const rows: [string, number, number][] = [
      ...COUNTER_METRICS.map((m): [string, number, number] => [m, k.metrics[m], number(theirs.get(m))]),
      ['theoretical occupancy (sm__maximum_warps_per_active_cycle_pct)', k.occupancy.pct, number(theirs.get('sm__maximum_warps_per_active_cycle_pct'))],
      ['waves (launch__waves_per_multiprocessor)', k.occupancy.waves, number(theirs.get('launch__waves_per_multiprocessor'))],
    ]
    for (const [name, a, b] of rows) {
      console.log(`  ${name.padEnd(70)} ${a.toFixed(2).padStart(12)} ${b.toFixed(2).padStart(12)}  Δ ${(a - b).toFixed(2)}`)
    }
  })
  for (const p of probes) console.log(`\n${p.label}: ${p.verdict.text} [${p.verdict.rule}], ${p.passes} passes, ${p.wallMs.toFixed(0)} ms`)
}

const [step = 'count', ...rest] = process.argv.slice(2)
if (step === 'compile') compileAll()
else if (step === 'metrics') console.log(COUNTER_METRICS.join(','))
else if (step === 'launches') launches()
else if (step === 'compare') compare(rest[0]!, rest[1]!)
else count()
