// TypeScript solutions on the GPU: an NVRTC kernel and a cuBLAS call verify like .cu solutions, and a kernel that
// does not compile fails with NVRTC's log. Skipped, with the reason, where no GPU is usable.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { PluginSettings } from '../../src/vitest/plugin-settings.js'
import { runKernelBench } from '../../src/vitest/run-bench.js'
import { matrixMultiplication, relu, vectorAddition } from '../../problems/index.js'
import { failureMessage } from '../../src/shared/results.js'
import { gpu, onGpuTitle } from '../helpers/gpu.js'

const file = fileURLToPath(import.meta.url)
const root = path.resolve(path.dirname(file), '../..')
const settings: PluginSettings = { devices: [0], cacheDir: path.join(root, 'node_modules/.cache/vitest-kernel-bench'), measure: {} }

describe.skipIf(!gpu.available)(onGpuTitle('TypeScript solutions on the GPU'), { timeout: 300_000 }, () => {
  it('an NVRTC relu verifies on every default case and is timed', async () => {
    const result = await runKernelBench('relu nvrtc', { problem: relu, solution: '../../problems/relu/solutions/relu_nvrtc.ts' }, { file, mode: 'bench', settings })
    expect(failureMessage(result)).toBeUndefined()
    expect(result.cases).toHaveLength(relu.cases('float32').length)
    expect(result.cases.every((c) => c.summary && c.summary.median > 0)).toBe(true)
  })

  it('a cuBLAS sgemm verifies', async () => {
    const result = await runKernelBench(
      'cublas sgemm',
      { problem: matrixMultiplication, solution: '../../problems/matrix-multiplication/solutions/cublas_sgemm.ts', cases: (c) => c.params.m === 4096 && c.params.n === 4096 },
      { file, mode: 'verify', settings },
    )
    expect(failureMessage(result)).toBeUndefined()
    expect(result.cases).toHaveLength(1)
  })

  it("a kernel NVRTC cannot compile fails the bench with NVRTC's log", async () => {
    const result = await runKernelBench('bad nvrtc', { problem: vectorAddition, solution: '../fixtures/solutions/bad_nvrtc.ts', cases: (c) => c.params.n === 2 ** 20 }, { file, mode: 'verify', settings })
    expect(failureMessage(result)).toMatch(/undefined_name/)
  })
})
