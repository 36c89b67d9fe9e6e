// A solution that reaches its Vitest worker from its device host (the host's parent process) to change the worker's
// scheduling, which every host the worker starts later would inherit: its case is refused, saying what changed; the
// worker is put back where it may be (a niceness, by root), and where it may not (a CPU set) every later case of the
// worker finds the change and is refused. A file of its own, since the test's worker is the one changed, and the CPU set last: nothing in
// this worker runs after it. Skipped, with the reason, where no GPU is usable.
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { vectorAddition } from '../../problems/index.js'
import { readProcessState } from '../../src/engine/worker/process-state.js'
import { failureMessage, type KernelBenchResult } from '../../src/shared/results.js'
import type { PluginSettings } from '../../src/vitest/plugin-settings.js'
import type { KernelBenchSpec } from '../../src/vitest/resolve-spec.js'
import { runKernelBench } from '../../src/vitest/run-bench.js'
import { gpu, onGpuTitle } from '../helpers/gpu.js'

const file = fileURLToPath(import.meta.url)
const root = path.resolve(path.dirname(file), '../..')
const settings: PluginSettings = { devices: [0], cacheDir: path.join(root, 'node_modules/.cache/vitest-kernel-bench'), measure: {} }
const honest = '../../problems/vector-addition/solutions/vector_add.cu'
const cases = [{ name: 'n = 2^20', params: { n: 2 ** 20 } }]

function bench(solution: string): Promise<KernelBenchResult> {
  const spec: KernelBenchSpec = { problem: vectorAddition, solution, cases, maxTimeMs: 200 }
  return runKernelBench('worker state', spec, { file, mode: 'bench', settings })
}

const before = readProcessState()
const canPin = before.cpus !== '' && before.cpus !== '0'

describe.skipIf(!gpu.available || before.nice >= 19)(onGpuTitle("a solution that changes its worker's scheduling"), { timeout: 300_000 }, () => {
  it('renice_parent.cu is refused, naming the niceness it set; the honest add after it runs where the worker could be put back', async () => {
    const result = await bench('../fixtures/solutions/state/renice_parent.cu')
    expect(failureMessage(result)).toContain(
      `something changed this Vitest worker's scheduling: its niceness from ${before.nice} to ${before.nice + 1}`,
    )
    const restored = os.getPriority() === before.nice
    const next = failureMessage(await bench(honest))
    console.log(`after renice_parent.cu: worker ${restored ? 'put back' : 'not put back'}; honest add: ${next ?? 'passed'}`)
    if (restored) expect(next).toBeUndefined()
    else expect(next).toMatch(/could not be put back.*the case is refused; run again/)
  })

  it.skipIf(!canPin)('pin_parent.cu is refused, naming the CPUs it left; every later case of the worker finds the change and is refused too', async () => {
    const result = await bench('../fixtures/solutions/state/pin_parent.cu')
    expect(failureMessage(result)).toContain(`the CPUs it may run on from ${before.cpus} to 0`)
    // The CPU set cannot be put back, so each later case finds it changed before it starts.
    expect(failureMessage(await bench(honest))).toContain(
      `WorkerStateChanged: before this case, something changed this Vitest worker's scheduling: the CPUs it may run on from ${before.cpus} to 0`,
    )
  })
})
