// Several GPUs of one host: a bench's cases go to any GPU of the selection that is free, each case says which GPU
// timed it, and a selection of one GPU keeps every case there. Whether a bench spreads over idle GPUs depends on what
// else claims them (other test files run in parallel), so the spreading is forced here by holding GPU 0's claim.
// Needs two GPUs of one model; skipped, with the reason in the suite's name, elsewhere.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { vectorAddition } from '../../problems/index.js'
import type { PluginSettings } from '../../src/vitest/plugin-settings.js'
import { runKernelBench } from '../../src/vitest/run-bench.js'
import { deviceInfo, probeGpu } from '../../src/native/cuda.js'
import { claimFirstFree } from '../../src/engine/worker/gpu-pool.js'
import { failureMessage } from '../../src/shared/results.js'

const file = fileURLToPath(import.meta.url)
const root = path.resolve(path.dirname(file), '../..')
const cacheDir = path.join(root, 'node_modules/.cache/vitest-kernel-bench')
const gpu = probeGpu()
const gpus = gpu.available ? gpu.count : 0
const why = gpu.available ? `this host has ${gpus} GPU${gpus === 1 ? '' : 's'}` : gpu.reason
const spec = {
  problem: vectorAddition,
  solution: '../../problems/vector-addition/solutions/vector_add.cu',
  cases: (c: { params: Readonly<Record<string, number>> }) => (c.params.n ?? 0) >= 2 ** 20 && (c.params.n ?? 0) <= 2 ** 24,
  maxTimeMs: 300,
}

function run(devices: PluginSettings['devices']) {
  return runKernelBench('multi-gpu', spec, { file, mode: 'bench', settings: { devices, cacheDir, measure: {} } })
}

describe.skipIf(gpus < 2)(`on several GPUs${gpus < 2 ? ` (skipped: ${why}; needs 2)` : ''}`, { timeout: 300_000 }, () => {
  it("'all' runs the cases on another GPU of the set while GPU 0 is claimed, and names the GPU of each", async () => {
    const { name, uuid, pciBusId } = deviceInfo(0)
    const { release } = await claimFirstFree([{ index: 0, name, uuid, pciBusId }])
    let result: Awaited<ReturnType<typeof run>>
    try {
      result = await run('all')
    } finally {
      release()
    }
    expect(failureMessage(result)).toBeUndefined()
    expect(result.devices!.length).toBeGreaterThanOrEqual(2)
    expect(result.cases.length).toBeGreaterThan(0)
    for (const c of result.cases) {
      expect(c.gpu!.index).not.toBe(0)
      expect(result.devices).toContainEqual(c.gpu)
      // The board that timed it, which a stored baseline records for the case (not always the first GPU's, result.device).
      expect(c.gpu!.uuid).toBe(deviceInfo(c.gpu!.index).uuid)
      expect(c.summary!.median).toBeGreaterThan(0)
    }
  })

  it('a selection of one GPU keeps every case on it', async () => {
    const result = await run([1])
    expect(result.devices).toEqual([{ index: 1, pciBusId: expect.any(String), uuid: deviceInfo(1).uuid }])
    expect(new Set(result.cases.map((c) => c.gpu!.index))).toEqual(new Set([1]))
  })
})
