// No solution changes another solution's number, nor how its own time is taken: solutions that change device or
// context state (when their library loads, or in their calls), leave work running, or patch the timing code, each
// followed in the same run by the honest add, whose median must read as in a clean run. Skipped, with the reason,
// where no GPU is usable.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import type { PluginSettings } from '../../src/vitest/plugin-settings.js'
import type { KernelBenchSpec } from '../../src/vitest/resolve-spec.js'
import { runKernelBench } from '../../src/vitest/run-bench.js'
import { vectorAddition } from '../../problems/index.js'
import { failureMessage, type CaseResult, type KernelBenchResult } from '../../src/shared/results.js'
import { gpu, onGpuTitle } from '../helpers/gpu.js'

const file = fileURLToPath(import.meta.url)
const root = path.resolve(path.dirname(file), '../..')
const settings: PluginSettings = { devices: [0], cacheDir: path.join(root, 'node_modules/.cache/vitest-kernel-bench'), measure: {} }
const fixture = (name: string) => `../fixtures/solutions/state/${name}`
const honest = '../../problems/vector-addition/solutions/vector_add.cu'
const at = (...powers: number[]) => powers.map((p) => ({ name: `n = 2^${p}`, params: { n: 2 ** p } }))
const quick = { maxTimeMs: 300 }

function bench(spec: Omit<KernelBenchSpec, 'problem'>): Promise<KernelBenchResult> {
  return runKernelBench('isolation', { problem: vectorAddition, ...quick, ...spec }, { file, mode: 'bench', settings })
}

function summary(c: CaseResult | undefined) {
  if (c?.outcome.status !== 'ok' || !c.summary) throw new Error(`not timed: ${JSON.stringify(c?.outcome)}`)
  return c.summary
}

/** The honest add at 2^22 and 2^25, as a clean run reads it, by case name. */
let clean: Map<string, { median: number; cv: number }>

/** The honest add, run now, reads within max(2%, 3 CV) of the clean run at every size. */
async function expectHonestAsClean(after: string): Promise<void> {
  const result = await bench({ solution: honest, cases: at(22, 25) })
  expect(failureMessage(result)).toBeUndefined()
  for (const c of result.cases) {
    const now = summary(c)
    const before = clean.get(c.name)!
    const ratio = now.median / before.median
    const bound = Math.max(0.02, 3 * Math.max(now.cv, before.cv))
    console.log(`honest add ${c.name} after ${after}: ${(now.median * 1e3).toFixed(2)} µs, clean ${(before.median * 1e3).toFixed(2)} µs (×${ratio.toFixed(3)}, bound ±${(bound * 100).toFixed(1)}%)`)
    expect(Math.abs(ratio - 1), `${c.name} after ${after}`).toBeLessThanOrEqual(bound)
  }
}

describe.skipIf(!gpu.available)(onGpuTitle('isolation on the GPU'), { timeout: 300_000 }, () => {
  beforeAll(async () => {
    const result = await bench({ solution: honest, cases: at(22, 25) })
    clean = new Map(result.cases.map((c) => [c.name, summary(c)]))
  })

  it.each([
    ['carve_out_at_load.cu', /DeviceStateChanged: the library built from carve_out_at_load\.cu, when it was loaded, changed the device state the harness measures in \(found right after loading it\):\n- \d+ bytes of L2 are set aside for persisting accesses/],
    ['error_at_load.cu', /DeviceStateChanged: the library built from error_at_load\.cu, when it was loaded, changed .*\n- a CUDA call failed with cudaErrorInvalidResourceHandle and its error was left unread/],
    ['patch_event_timer.cu', /Tampering: the library built from patch_event_timer\.cu, when it was loaded, changed the code that times it \(found right after loading it\): the machine code of .*libcudart\.so[.\d]* was written to/],
    ['patch_builtins.ts', /Tampering: the module patch_builtins\.ts, when it was loaded, changed the code that times it \(found right after loading it\): built-in functions were replaced: Math\.min/],
    // Patched in its first call: the stream audit sees its work outlast the 1 µs windows the patched timer reads, or
    // else the code check after timing (protocol step 13) finds the patch. Its 1 µs samples are never reported.
    [
      'patch_event_timer_on_call.cu',
      /EscapedWork: .* or the events' reading is not the GPU's \(a timer changed in this process\)|Tampering: the solution changed the code that times it \(found after timing the case\): the machine code of .*libcudart\.so[.\d]* was written to/,
    ],
  ])('%s is refused, saying what it changed; the honest add after it reads as in a clean run', async (name, message) => {
    const result = await bench({ solution: fixture(name), cases: at(20) })
    expect(failureMessage(result)).toMatch(message)
    await expectHonestAsClean(name)
  })

  it('the case whose calls change the device flags is refused; its next case, and the honest add after it, read as in a clean run', async () => {
    const alone = summary((await bench({ solution: fixture('device_flags_one_case.cu'), cases: at(25) })).cases[0])
    const result = await bench({ solution: fixture('device_flags_one_case.cu'), cases: at(20, 25) })
    const [changed, next] = result.cases
    expect(changed?.outcome.status === 'error' && changed.outcome.message).toMatch(
      /solution\(\) changed the device state the harness measures in \(found after the verified call before timing\):\n- the device flags ask for cudaDeviceScheduleBlockingSync, not cudaDeviceSchedule\w+ \(cudaSetDeviceFlags\)/,
    )
    // Its own add at 2^25, after the refused case, reads as when it runs alone.
    const own = summary(next)
    console.log(`device_flags_one_case.cu n = 2^25 after its refused case: ${(own.median * 1e3).toFixed(2)} µs, alone ${(alone.median * 1e3).toFixed(2)} µs`)
    expect(Math.abs(own.median / alone.median - 1)).toBeLessThanOrEqual(Math.max(0.02, 3 * Math.max(own.cv, alone.cv)))
    await expectHonestAsClean('device_flags_one_case.cu')
  })

  it.each(['context_wide_settings.cu', 'work_at_load.cu', 'device_reset_at_load.cu'])(
    '%s keeps what it changes to its own process: it is measured, and the honest add after it reads as in a clean run',
    async (name) => {
      const result = await bench({ solution: fixture(name), cases: at(25) })
      expect(failureMessage(result)).toBeUndefined()
      await expectHonestAsClean(name)
    },
  )
})
