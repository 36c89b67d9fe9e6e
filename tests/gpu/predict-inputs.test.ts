// Inputs nobody can predict (docs/defences.md): a solution that knows the harness's input generator and the seed
// formula of every draw, and would hand back answers computed ahead for the draws it recognises
// (tests/fixtures/solutions/hostile/predict_draws.cu). It finds the first verified call's inputs, whose seed is the
// case's own so that a wrong answer can be reproduced: proof that its generator is the harness's. It must find no
// later draw (their seeds come from the host's secret), compute every call, and read no faster than the honest add.
// A file of its own: the fixture reports what it found through a file named in the device host's environment, set
// before this worker starts any host. Skipped, with the reason, where no GPU is usable.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { vectorAddition } from '../../problems/index.js'
import { failureMessage, type CaseResult } from '../../src/shared/results.js'
import type { PluginSettings } from '../../src/vitest/plugin-settings.js'
import type { KernelBenchSpec } from '../../src/vitest/resolve-spec.js'
import { runKernelBench } from '../../src/vitest/run-bench.js'
import { gpu, onGpuTitle } from '../helpers/gpu.js'

const file = fileURLToPath(import.meta.url)
const root = path.resolve(path.dirname(file), '../..')
const settings: PluginSettings = { devices: [0], cacheDir: path.join(root, 'node_modules/.cache/vitest-kernel-bench'), measure: {} }
const caseName = 'n = 2^22'
const cases = [{ name: caseName, params: { n: 2 ** 22 } }]
/** The case's seed as anyone can compute it from the problem's and the case's names. */
const caseSeed = crypto.createHash('sha256').update(`${vectorAddition.name}/${caseName}`).digest().readUInt32LE(0)

function bench(spec: Pick<KernelBenchSpec, 'solution' | 'build'>) {
  return runKernelBench('predict inputs', { problem: vectorAddition, cases, maxTimeMs: 300, timing: 'cupti', ...spec }, { file, mode: 'bench', settings })
}

function median(c: CaseResult | undefined): number {
  if (!c?.summary) throw new Error(`not timed: ${JSON.stringify(c?.outcome)}`)
  return c.summary.median
}

describe.skipIf(!gpu.available)(onGpuTitle('a solution that predicts its inputs'), { timeout: 300_000 }, () => {
  let folder = ''
  beforeAll(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-predict-'))
    process.env.KB_PREDICT_REPORT = path.join(folder, 'report.txt')
  })
  afterAll(() => {
    delete process.env.KB_PREDICT_REPORT
    fs.rmSync(folder, { recursive: true, force: true })
  })

  it('predict_draws: finds the first verified call only, computes every call and reads no faster than the honest add', async () => {
    const cheat = await bench({ solution: '../fixtures/solutions/hostile/predict_draws.cu', build: { defines: { KB_CASE_SEED: `${caseSeed}u` } } })
    const [calls, foundFirst, foundLater] = fs.readFileSync(process.env.KB_PREDICT_REPORT!, 'utf8').trim().split(' ').map(Number)
    console.log(`predict_draws, ${caseName}: ${calls} calls, found draw 0 in ${foundFirst}, a later draw in ${foundLater}`)
    expect(foundFirst).toBeGreaterThanOrEqual(1)
    expect(foundLater).toBe(0)
    expect(calls).toBeGreaterThan(foundFirst!)
    expect(failureMessage(cheat)).toBeUndefined()
    const fair = await bench({ solution: '../../problems/vector-addition/solutions/vector_add.cu' })
    console.log(`predict_draws against the honest add in cupti timing, ${caseName}: ×${(median(cheat.cases[0]) / median(fair.cases[0])).toFixed(3)}`)
    expect(median(cheat.cases[0])).toBeGreaterThan(0.97 * median(fair.cases[0]))
  })
})
