// What the integrity checks cost on the GPU machine: honest kernels timed with every check on (the default) and
// with the per-sample stream audit off, alternating, in one process.
//   tsx scripts/integrity-cost.ts [rounds] [kernel label prefix]
// Prints each kernel's median and CV per configuration and the change of the median against 'audit off'.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { PluginSettings } from '../src/vitest/plugin-settings.js'
import type { KernelBenchSpec } from '../src/vitest/resolve-spec.js'
import { runKernelBench } from '../src/vitest/run-bench.js'
import type { MeasureOptions } from '../src/spec/options.js'
import { formatTime, renderTable } from '../src/report/format.js'
import { matrixMultiplication, sumDim, vectorAddition } from '../problems/index.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const settings: PluginSettings = { devices: [0], cacheDir: path.join(root, 'node_modules/.cache/vitest-kernel-bench'), measure: {} }
// Solutions are named relative to the repository root.
const file = path.join(root, 'package.json')

const KERNELS: Array<[string, KernelBenchSpec]> = [
  ...[16, 20, 24].map((p): [string, KernelBenchSpec] => [
    `vector add 2^${p}`,
    { problem: vectorAddition, solution: 'problems/vector-addition/solutions/vector_add.cu', cases: [{ name: `2^${p}`, params: { n: 2 ** p } }] },
  ]),
  [
    'sgemm tiled 1024³',
    { problem: matrixMultiplication, solution: 'problems/matrix-multiplication/solutions/sgemm_tiled.cu', cases: [{ name: '1024³', params: { m: 1024, n: 1024, k: 1024 } }] },
  ],
  ['sum-dim 128x64x64x64, dim=3', { problem: sumDim, solution: 'problems/sum-dim/solutions/sum_dim.cu', cases: (c) => c.name === '128x64x64x64, dim=3' }],
]

const CONFIGS: Array<[string, Partial<MeasureOptions>]> = [
  ['audit off', { auditStreams: false }],
  ['default', {}],
]

const rounds = Number(process.argv[2] ?? 2)
const only = process.argv[3]
const medians = new Map<string, number[]>()
const rows: string[][] = []
for (let round = 0; round < rounds; round++) {
  for (const [label, spec] of KERNELS.filter(([l]) => !only || l.startsWith(only))) {
    for (const [config, options] of CONFIGS) {
      const result = await runKernelBench(label, { ...spec, ...options }, { file, mode: 'bench', settings })
      const c = result.cases[0]
      if (!c?.summary || c.outcome.status !== 'ok') throw new Error(`${label} (${config}): ${JSON.stringify(c?.outcome).slice(0, 400)}`)
      const key = `${label}|${config}`
      medians.set(key, [...(medians.get(key) ?? []), c.summary.median])
      const t = c.outcome.timing!
      rows.push([label, config, String(round), formatTime(c.summary.median), `${(c.summary.cv * 100).toFixed(2)}%`, String(t.samplesMs.length), String(t.droppedInterference), String(t.checkedCalls), `${t.wallMs.toFixed(0)} ms`])
    }
  }
}
const header = ['kernel', 'config', 'round', 'median', 'cv', 'n', 'dropped', 'checked', 'wall']
console.log(renderTable(header, rows, header.map((_, i) => (i < 2 ? 'left' : 'right'))).join('\n'))
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length
console.log()
for (const [label] of KERNELS.filter(([l]) => !only || l.startsWith(only))) {
  const off = mean(medians.get(`${label}|audit off`)!)
  const on = mean(medians.get(`${label}|default`)!)
  console.log(`${label}: audit off ${formatTime(off)}, default ${formatTime(on)}, change ${((on / off - 1) * 100).toFixed(2)}%`)
}
// The device hosts would keep the process alive.
process.exit(0)
