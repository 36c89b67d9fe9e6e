// The four timing modes on an honest kernel: each verifies, stops by its rule, and reports a runtime the
// hardware allows. Skipped, with the reason, where no GPU is usable.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { PluginSettings } from '../../src/vitest/plugin-settings.js'
import { runKernelBench } from '../../src/vitest/run-bench.js'
import { maxDim, vectorAddition } from '../../problems/index.js'
import { failureMessage } from '../../src/shared/results.js'
import { gpu, onGpuTitle } from '../helpers/gpu.js'

const file = fileURLToPath(import.meta.url)
const root = path.resolve(path.dirname(file), '../..')
const settings: PluginSettings = { devices: [0], cacheDir: path.join(root, 'node_modules/.cache/vitest-kernel-bench'), measure: {} }
const solution = '../../problems/vector-addition/solutions/vector_add.cu'
// A small reduction, whose copy of the shape is a large part of its time.
const maxDimCase = '16x128x256, dim=1'

describe.skipIf(!gpu.available)(onGpuTitle('timing modes on the GPU'), { timeout: 300_000 }, () => {
  it.each(['events', 'cupti', 'profiler', 'graph'] as const)('%s: verifies, converges and stays under the memory bandwidth', async (timing) => {
    const result = await runKernelBench('modes', { problem: vectorAddition, solution, timing, cases: (c) => c.params.n === 2 ** 25 }, { file, mode: 'bench', settings })
    expect(failureMessage(result)).toBeUndefined()
    const [c] = result.cases
    if (c?.outcome.status !== 'ok' || !c.outcome.timing || !c.summary) throw new Error('no timing')
    const t = c.outcome.timing
    expect(t.callsPerSample).toBe(timing === 'graph' ? 20 : 1)
    expect(t.checkedCalls).toBeGreaterThan(0)
    expect(t.streamAudit).toBe(timing === 'events' ? 'batches at random' : 'off')
    // `cupti` sees copies apart from kernels, and `events` in its audited calls; the add makes none.
    expect(t.hostShare).toBe(timing === 'cupti' || timing === 'events' ? 0 : undefined)
    expect(['target-cv', 'noise-stable']).toContain(t.stopReason)
    const gbps = c.bytes / (c.summary.median * 1e-3) / 1e9
    expect(gbps).toBeGreaterThan(1000)
    expect(gbps).toBeLessThan(5000)
  })

  it.each(['cupti', 'events'] as const)('%s: a solution that copies its shape to the host in every call shows the host share of its time', async (timing) => {
    const result = await runKernelBench(
      'copies',
      { problem: maxDim, solution: '../../problems/max-dim/solutions/max_dim.cu', timing, cases: (c) => c.name === maxDimCase },
      { file, mode: 'bench', settings },
    )
    expect(failureMessage(result)).toBeUndefined()
    const share = result.cases[0]?.outcome.status === 'ok' ? result.cases[0].outcome.timing?.hostShare : undefined
    expect(share).toBeGreaterThan(0.01)
    expect(share).toBeLessThan(1)
  })
})
