// Per-case progress on a real GPU: runKernelBench announces each case before running it, and under `vitest bench`
// the announcement reaches the reporter in the task's meta. Skipped, with the reason, where no GPU is usable.
import path from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { describe, expect, it, vi } from 'vitest'
import { startVitest, type TestCase } from 'vitest/node'
import { vectorAddition } from '../../problems/index.js'
import type { PluginSettings } from '../../src/vitest/plugin-settings.js'
import { runKernelBench } from '../../src/vitest/run-bench.js'
import { kernelBenchPlugin } from '../../src/plugin.js'
import type { KernelBenchProgress } from '../../src/shared/results.js'
import { gpu, onGpuTitle } from '../helpers/gpu.js'

const file = fileURLToPath(import.meta.url)
const root = path.resolve(path.dirname(file), '../..')
const cacheDir = path.join(root, 'node_modules/.cache/vitest-kernel-bench')
const settings: PluginSettings = { devices: [0], cacheDir, measure: {} }
const twoCases = (c: { params: Readonly<Record<string, number>> }) => c.params.n === 2 ** 20 || c.params.n === 2 ** 22

describe.skipIf(!gpu.available)(onGpuTitle('per-case progress on the GPU'), { timeout: 300_000 }, () => {
  it('runKernelBench announces each case, in order, with the number of cases', async () => {
    const calls: Array<[number, number, string]> = []
    const result = await runKernelBench(
      'progress',
      { problem: vectorAddition, solution: '../../problems/vector-addition/solutions/vector_add.cu', cases: twoCases },
      { file, mode: 'verify', settings, onCase: (index, total, name) => calls.push([index, total, name]) },
    )
    expect(calls).toEqual([
      [0, 2, 'n = 2^20'],
      [1, 2, 'n = 2^22'],
    ])
    expect(result.cases.map((c) => c.name)).toEqual(['n = 2^20', 'n = 2^22'])
  })

  it('under vitest bench, the reporter sees the case running and no progress once the bench is done', async () => {
    vi.stubEnv('KERNELBENCH_JSON', '') // this run's results must not replace a CI job's
    const ready: Array<KernelBenchProgress | undefined> = []
    const finished: Array<KernelBenchProgress | undefined> = []
    const outcomes: string[] = []
    const recorder = {
      onTestCaseReady: (test: TestCase) => void ready.push(test.meta().kernelBenchProgress),
      onTestCaseResult: (test: TestCase) => {
        finished.push(test.meta().kernelBenchProgress)
        const result = test.result()
        outcomes.push(result.state === 'failed' ? `failed: ${result.errors?.map((e) => e.message).join('; ')}` : result.state)
      },
    }
    const quiet = new Writable({ write: (_chunk, _encoding, done) => done() })
    try {
      const vitest = await startVitest(
        'benchmark',
        [],
        { root: path.join(root, 'tests/fixtures/progress'), config: false, watch: false, cache: false },
        {
          plugins: [kernelBenchPlugin({ cacheDir, stepSummary: false })],
          test: { benchmark: { include: ['two-cases.bench.ts'], reporters: [recorder] } },
        },
        { stdout: quiet, stderr: quiet },
      )
      await vitest.close()
    } finally {
      vi.unstubAllEnvs()
    }
    expect(outcomes).toEqual(['passed'])
    const announced = ready.filter((p) => p !== undefined)
    expect(announced.length).toBeGreaterThan(0)
    for (const p of announced) expect([{ case: 'n = 2^20', index: 0, total: 2 }, { case: 'n = 2^22', index: 1, total: 2 }]).toContainEqual(p)
    expect(announced.at(-1)).toEqual({ case: 'n = 2^22', index: 1, total: 2 })
    expect(finished).toEqual([undefined])
  })
})
