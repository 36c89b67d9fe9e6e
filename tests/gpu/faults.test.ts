// Broken solutions (docs/architecture.md, "Faults"): each fails only its own bench, with a message a user can act on, and
// the next bench still runs. Skipped, with the reason, where no GPU is usable.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { PluginSettings } from '../../src/vitest/plugin-settings.js'
import type { KernelBenchSpec } from '../../src/vitest/resolve-spec.js'
import { runKernelBench } from '../../src/vitest/run-bench.js'
import { vectorAddition } from '../../problems/index.js'
import { failureMessage } from '../../src/shared/results.js'
import { gpu, onGpuTitle } from '../helpers/gpu.js'

const file = fileURLToPath(import.meta.url)
const root = path.resolve(path.dirname(file), '../..')
const settings: PluginSettings = { devices: [0], cacheDir: path.join(root, 'node_modules/.cache/vitest-kernel-bench'), measure: {} }
const fixture = (name: string) => `../fixtures/solutions/${name}`
const honest = '../../problems/vector-addition/solutions/vector_add.cu'
const at = (n: number) => (c: { params: Readonly<Record<string, number>> }) => c.params.n === n

function run(spec: Omit<KernelBenchSpec, 'problem'>, mode: 'verify' | 'bench' = 'verify') {
  return runKernelBench('fault', { problem: vectorAddition, ...spec }, { file, mode, settings })
}

/** The honest solution still verifies: whatever happened before did not break the next bench. */
async function nextBenchRuns() {
  expect(failureMessage(await run({ solution: honest, cases: at(2 ** 20) }))).toBeUndefined()
}

describe.skipIf(!gpu.available)(onGpuTitle('faults on the GPU'), { timeout: 300_000 }, () => {
  it('rejects a NaN in the output, counting it', async () => {
    const message = failureMessage(await run({ solution: fixture('nan_output.cu'), cases: at(2 ** 20) }))
    expect(message).toMatch(/d_output: 1 of 1048576 elements out of tolerance .*1 NaN .*first bad index 777: expected -?\d/)
  })

  it('fails a solution whose host code segfaults, and the next bench runs', async () => {
    const message = failureMessage(await run({ solution: fixture('host_segfault.cu'), cases: at(2 ** 20) }))
    expect(message).toMatch(/DeviceHostDied: the process that owns the GPU was killed by SIGSEGV during case 'n = 2\^20' \(a crash in the solution's host code\?\)/)
    await nextBenchRuns()
  })

  it('fails a shape that needs more memory than the GPU has before allocating, and runs the other cases', async () => {
    const result = await run({ solution: honest, cases: [{ name: 'n = 2^40', params: { n: 2 ** 40 } }, { name: 'n = 2^20', params: { n: 2 ** 20 } }] })
    expect(failureMessage(result)).toMatch(/case 'n = 2\^40': OutOfMemory: case 'n = 2\^40' needs 20480\.00 GiB of device memory .* Use a smaller shape/)
    expect(result.cases.map((c) => c.outcome.status)).toEqual(['error', 'ok'])
  })

  it('sanitize mode fails a write past the end that verification cannot see, with memcheck\'s first report', async () => {
    const spec = { problem: vectorAddition, solution: fixture('write_past_end.cu'), cases: [{ name: 'n = 1000', params: { n: 1000 } }] }
    const plain = await runKernelBench('plain', spec, { file, mode: 'verify', settings })
    expect(failureMessage(plain)).toBeUndefined()
    const sanitized = await runKernelBench('sanitized', spec, { file, mode: 'verify', settings: { ...settings, sanitize: true } })
    expect(sanitized.cases.map((c) => c.name)).toEqual(['n = 1000 · memcheck', 'n = 1000'])
    expect(failureMessage(sanitized)).toMatch(/ComputeSanitizer: compute-sanitizer memcheck found:\nInvalid __global__ write of size 4 bytes\n\s+at add.*write_past_end\.cu:7/)
  })

  it('reports a compile error at its file and line', async () => {
    await expect(run({ solution: fixture('syntax_error.cu') })).rejects.toThrow(/nvcc failed to compile .*syntax_error\.cu:5/)
  })

  it('reports a signature mismatch with the expected prototype', async () => {
    await expect(run({ solution: fixture('wrong_signature.cu') })).rejects.toThrow(/size_t n/)
  })

  it('ends a kernel that sleeps past the case timeout, says how long it ran, and goes on', async () => {
    const message = failureMessage(await run({ solution: fixture('sleepy_kernel.cu'), cases: at(2 ** 20), caseTimeoutMs: 3000 }))
    expect(message).toMatch(/Timeout: case 'n = 2\^20' did not finish within 3 s \(stopped after 3\.\d s/)
    await nextBenchRuns()
  })
})
