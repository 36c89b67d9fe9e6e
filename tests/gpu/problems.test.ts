// Every example solution (and drop-in written as Tensara users write them) of the catalog verifies on every default case of its problem, and every planted wrong
// solution is rejected with its expected message. Skipped, with the reason, where no GPU is usable.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { PluginSettings } from '../../src/vitest/plugin-settings.js'
import { runKernelBench } from '../../src/vitest/run-bench.js'
import { failureMessage } from '../../src/shared/results.js'
import { dropIns, examples, planted } from '../catalog/index.js'
import { gpu, onGpuTitle } from '../helpers/gpu.js'

const file = fileURLToPath(import.meta.url)
const root = path.resolve(path.dirname(file), '../..')
const settings: PluginSettings = { devices: [0], cacheDir: path.join(root, 'node_modules/.cache/vitest-kernel-bench'), measure: {} }
const label = (e: { problem: { name: string }; dtype: string; solution: string }) => `${e.problem.name} (${e.dtype}) ${path.basename(e.solution)}`

describe.skipIf(!gpu.available)(onGpuTitle('problems on the GPU'), { timeout: 600_000 }, () => {
  it.each([...examples, ...dropIns].map((e) => [label(e), e] as const))('%s verifies on every default case', async (_label, e) => {
    const result = await runKernelBench('example', { problem: e.problem, solution: e.solution, dtype: e.dtype }, { file, mode: 'verify', settings })
    expect(failureMessage(result)).toBeUndefined()
    expect(result.cases.map((c) => c.name)).toEqual(e.problem.cases(e.dtype).map((c) => c.name))
    for (const c of result.cases) expect(c.outcome.status).toBe('ok')
  })

  it.each(planted.map((e) => [label(e), e] as const))('planted %s is rejected', async (_label, e) => {
    const result = await runKernelBench('planted', { problem: e.problem, solution: e.solution, dtype: e.dtype }, { file, mode: 'verify', settings })
    const message = failureMessage(result)
    expect(message).toMatch(/wrong answer/)
    expect(message).toMatch(e.message)
  })
})
