// The stored-baseline gate on real timings: runs recorded as `vitest bench -u` records them, then judged as a plain
// `vitest bench` judges them, and as the `gate` command judges several runs together. Skipped, with the reason in the suite's name, where no GPU is usable.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { PluginSettings } from '../../src/vitest/plugin-settings.js'
import { runKernelBench } from '../../src/vitest/run-bench.js'
import { matrixMultiplication } from '../../problems/index.js'
import { failureMessage } from '../../src/shared/results.js'
import { guardResult } from '../../src/baseline/guard.js'
import { baselinePath, readBaseline } from '../../src/baseline/store.js'
import { judgeRunsTogether } from '../../src/baseline/runs-together.js'
import type { BenchRecord } from '../../src/report/json.js'
import type { KernelBenchResult } from '../../src/shared/results.js'
import { useScratch } from '../helpers/scratch.js'
import { gpu, onGpuTitle } from '../helpers/gpu.js'

const file = fileURLToPath(import.meta.url)
const root = path.resolve(path.dirname(file), '../..')
const settings: PluginSettings = { devices: [0], cacheDir: path.join(root, 'node_modules/.cache/vitest-kernel-bench'), measure: {} }

describe.skipIf(!gpu.available)(onGpuTitle('on the GPU'), { timeout: 300_000 }, () => {
  const scratch = useScratch('kb-guard-')

  it('two recorded runs of the tiled sgemm judge a third as no regression, and the naive sgemm in its place as one, alone and two runs together; every run names its board\'s probe', async () => {
    const benchRoot = scratch()
    const probes: (number | undefined)[] = []
    const judgedRuns: KernelBenchResult[] = []
    // One bench name and case for both solutions, as when a pull request changes the solution behind a bench.
    const bench = async (name: string, update: boolean) => {
      const spec = { problem: matrixMultiplication, solution: `../../problems/matrix-multiplication/solutions/${name}`, cases: (c: { name: string }) => c.name === '4096x4096x4096', timing: 'cupti' as const }
      const result = await runKernelBench('sgemm', spec, { file, mode: 'bench', settings })
      expect(failureMessage(result)).toBeUndefined()
      probes.push(result.cases[0]!.gpu?.boardProbeMs)
      const judged = guardResult(result, { benchFile: path.join(benchRoot, 'sgemm.bench.ts'), root: benchRoot, rules: { floors: {}, allowAboveRoofline: false }, update })
      judgedRuns.push(judged)
      return judged.cases[0]!.verdict!
    }
    expect((await bench('sgemm_tiled.cu', true)).message).toContain('no previous baseline')
    expect((await bench('sgemm_tiled.cu', true)).message).toMatch(/runs kept/)
    const again = await bench('sgemm_tiled.cu', false)
    expect(again.kind).not.toBe('regression')
    expect(again.message).toMatch(/between-run spread \d+\.\d% from 2 runs/)
    // The naive sgemm is about five times slower (45 against 9 ms at 4096³ on an H200).
    const naive = await bench('sgemm_naive.cu', false)
    expect(naive).toMatchObject({ kind: 'regression', fails: true })
    expect(naive.message).toMatch(/^regression: slower than baseline by [4-9]\d\.\d% \[/)
    // The `gate` command's judgement of several runs: two of the naive sgemm together, and two of the tiled one.
    await bench('sgemm_naive.cu', false)
    await bench('sgemm_tiled.cu', false)
    const together = (runs: KernelBenchResult[]) => {
      const records = runs.map((result) => [{ file: 'sgemm.bench.ts', name: 'sgemm', state: 'passed', result, errors: [] } as unknown as BenchRecord])
      const { judged } = judgeRunsTogether(records, (f) => readBaseline(path.resolve(benchRoot, f)), {})
      expect(judged).toHaveLength(1)
      return judged[0]!.verdict
    }
    const naiveTogether = together([judgedRuns[3]!, judgedRuns[4]!])
    expect(naiveTogether).toMatchObject({ kind: 'regression', fails: true })
    expect(naiveTogether.message).toContain('2 runs of this board judged together')
    expect(together([judgedRuns[2]!, judgedRuns[5]!]).kind).not.toMatch(/regression|improvement/)
    // The probe is measured once per board and run (5.8–6.1 ms on H200s), and the recorded runs keep it.
    expect(probes[0]).toBeGreaterThan(0)
    expect(new Set(probes)).toEqual(new Set([probes[0]]))
    const stored = Object.values(readBaseline(baselinePath(benchRoot, path.join(benchRoot, 'sgemm.bench.ts')))!.entries)[0]!
    expect(stored.runs!.map((r) => r.boardProbeMs)).toEqual([probes[0], probes[0]])
  })
})
