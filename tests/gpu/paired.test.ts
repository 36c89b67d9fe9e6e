// Paired A/B runs on a real GPU (docs/ci-gate.md, "Paired A/B"): the same solution against itself is never a
// regression, and a really slower kernel (the example add, then part of the vector added again) is caught. Skipped,
// with the reason in the suite's name, where no GPU is usable.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { guardResult } from '../../src/baseline/guard.js'
import { failureMessage } from '../../src/shared/results.js'
import { vectorAddition } from '../../problems/index.js'
import { DEFAULT_COMPARE, MIN_PAIRED_BLOCKS } from '../../src/spec/compare.js'
import type { PluginSettings } from '../../src/vitest/plugin-settings.js'
import type { KernelBenchSpec } from '../../src/vitest/resolve-spec.js'
import { runKernelBench } from '../../src/vitest/run-bench.js'
import { gpu, onGpuTitle } from '../helpers/gpu.js'

const file = fileURLToPath(import.meta.url)
const root = path.resolve(path.dirname(file), '../..')
const settings: PluginSettings = {
  devices: [0],
  cacheDir: path.join(root, 'node_modules/.cache/vitest-kernel-bench'),
  measure: {},
  compare: DEFAULT_COMPARE,
}
const example = '../../problems/vector-addition/solutions/vector_add.cu'
const large = (c: { params: Readonly<Record<string, number>> }) => c.params.n! >= 2 ** 24 && c.params.n! <= 2 ** 27

async function judged(spec: KernelBenchSpec) {
  const measured = await runKernelBench('paired', spec, { file, mode: 'bench', settings })
  return guardResult(measured, { benchFile: file, root, rules: { floors: {}, allowAboveRoofline: false }, update: false })
}

describe.skipIf(!gpu.available)(onGpuTitle('paired A/B on the GPU'), { timeout: 300_000 }, () => {
  it(`finds no regression in the example add against itself, each case with both sides verified, timed with cupti over ${MIN_PAIRED_BLOCKS} blocks or more`, async () => {
    const result = await judged({ problem: vectorAddition, solution: example, compareWith: example, cases: large })
    expect(result.compare).toMatchObject({ base: example, tolerance: DEFAULT_COMPARE.tolerance })
    expect(result.cases.length).toBeGreaterThan(0)
    for (const c of result.cases) {
      expect(c.outcome.status).toBe('ok')
      expect(c.paired?.base.outcome.status).toBe('ok')
      expect(new Set(c.paired!.rounds!.block).size).toBeGreaterThanOrEqual(MIN_PAIRED_BLOCKS)
      expect(c.outcome.status === 'ok' && c.outcome.timing?.stopReason).toMatch(/^paired-/)
      expect(c.outcome.status === 'ok' && c.outcome.timing?.streamAudit).toBe('off')
      expect(c.verdict?.against).toBe(example)
      expect(c.verdict?.kind).not.toBe('regression')
    }
  })

  it('fails the case of a solution whose thread launches work between its calls, where the base would be timing', async () => {
    const result = await judged({ problem: vectorAddition, solution: '../fixtures/solutions/hostile/work_between_calls.cu', compareWith: example, cases: (c) => c.params.n === 2 ** 22 })
    expect(result.cases).toHaveLength(1)
    const outcome = result.cases[0]!.outcome
    expect(outcome.status).toBe('error')
    expect(outcome.status === 'error' && `${outcome.errorName}: ${outcome.message}`).toMatch(/EscapedWork: \d+ pieces of GPU work that no call launched|unfinished/)
  })

  it('fails the case of a base that goes wrong after the current solution has opened beside it', async () => {
    const result = await judged({ problem: vectorAddition, solution: example, compareWith: '../fixtures/solutions/wrong_after_calls.cu', cases: (c) => c.params.n === 2 ** 20 })
    expect(result.cases).toHaveLength(1)
    const c = result.cases[0]!
    expect(c.paired?.base.outcome.status).toBe('wrong')
    const outcome = c.outcome
    // Its opening (a verified call, up to three warm-up calls, a priming batch) passes, so the failure comes beside the
    // current side: in a round's checked call, or in the last verified call. The case fails, and so does the bench.
    expect(outcome.status === 'error' && `${outcome.errorName}: ${outcome.message}`).toMatch(/^PairedBaseFailed: the base solution failed after this solution had opened the case beside it \(a wrong answer/)
    expect(failureMessage(result)).toMatch(/PairedBaseFailed/)
  })

  it('fails the case of a solution whose thread zeroes the outputs both sides share, while the base runs', async () => {
    const result = await judged({ problem: vectorAddition, solution: '../fixtures/solutions/hostile/write_shared_outputs.cu', compareWith: example, cases: (c) => c.params.n === 2 ** 22 })
    expect(result.cases).toHaveLength(1)
    const outcome = result.cases[0]!.outcome
    // Whichever defence sees it first: the thread's work outside every call (this side's own records), or the base's
    // wrong answer beside it, or this side's own wrong answer. The case fails either way, and so does the bench.
    expect(outcome.status).not.toBe('ok')
    const text = outcome.status === 'error' ? `${outcome.errorName}: ${outcome.message}` : outcome.status === 'wrong' ? `wrong: ${outcome.message}` : outcome.status
    expect(text).toMatch(/^(EscapedWork|IncompleteRecords|PairedBaseFailed|wrong)/)
    expect(failureMessage(result)).toBeTruthy()
  })

  it('catches a kernel 10% slower (a tenth of the vector added again) on every case', async () => {
    const result = await judged({
      problem: vectorAddition,
      solution: '../fixtures/solutions/vector_add_redo.cu',
      build: { defines: { REDO_PERMILLE: 100 } },
      compareWith: example,
      cases: large,
    })
    for (const c of result.cases) {
      expect(c.verdict).toMatchObject({ kind: 'regression', fails: true })
      expect(c.verdict!.change!).toBeLessThan(-0.03)
      expect(c.verdict!.change!).toBeGreaterThan(-0.3)
    }
  })
})
