// The kernel matchers on a recorded result (an H100's tiled sgemm, tests/fixtures/results): a TFLOPS floor on every
// timed case, and a comparison with another result judged by the interval of the change, as the CI guard's is.
import { expect, it } from 'vitest'
import '../../src/vitest/matchers.js'
import type { KernelBenchResult } from '../../src/shared/results.js'
import { loadFixture } from '../fixtures/results/index.js'
import { summarize } from '../../src/shared/stats.js'

const tiled = loadFixture('sgemm-verdicts').result!

/** The same result under another name, every sample `factor` times as long. */
function slowed(bench: string, factor: number): KernelBenchResult {
  const cases = tiled.cases.map((c) => {
    if (c.outcome.status !== 'ok' || !c.outcome.timing || !c.summary) return c
    const samplesMs = c.outcome.timing.samplesMs.map((t) => t * factor)
    return { ...c, outcome: { ...c.outcome, timing: { ...c.outcome.timing, samplesMs } }, summary: summarize(samplesMs) }
  })
  return { ...tiled, bench, cases }
}

it('toReachTflops passes when every timed case reaches the floor, and names the cases below it', () => {
  // 17.4, 15.2, 18.8 and 16.7 TFLOPS
  expect(tiled).toReachTflops(15)
  expect(tiled).not.toReachTflops(16)
  expect(() => expect(tiled).toReachTflops(17)).toThrow('tiled sgemm is below 17 TFLOPS on 8192x4096x8192 (15.2 TFLOPS), 8192x8192x8192 (16.7 TFLOPS)')
  expect(() => expect({ ...tiled, cases: [] }).toReachTflops(1)).toThrow('tiled sgemm has no timed case')
})

it('toOutperform passes only where the interval of the change lies wholly above the tolerance, on the same GPU', () => {
  const naive = slowed('naive', 1.2)
  expect(tiled).toOutperform(naive)
  expect(naive).not.toOutperform(tiled)
  // 3% faster: the intervals (about ±0.5% on these 17 to 38 samples) lie above a 1% tolerance but straddle 3%.
  const close = slowed('close', 1.03)
  expect(tiled).toOutperform(close, { tolerance: 0.01 })
  expect(tiled).not.toOutperform(close, { tolerance: 0.03 })
  expect(() => expect(tiled).toOutperform(close, { tolerance: 0.03 })).toThrow(
    /^tiled sgemm does not outperform close beyond the tolerance on:\n {2}4096x4096x4096: 17\.4 vs 16\.9 TFLOPS, \+3\.0% \[\+2\.\d%, \+3\.\d%\]: inconclusive, the interval straddles the tolerance 3\.0%/,
  )
  const elsewhere = { ...naive, device: { ...naive.device!, name: 'NVIDIA A100-SXM4-80GB' } }
  expect(() => expect(tiled).toOutperform(elsewhere)).toThrow(/naive was measured on NVIDIA A100-SXM4-80GB, not compared/)
  expect(() => expect(tiled).toOutperform({ ...naive, cases: [] })).toThrow('tiled sgemm and naive have no timed case in common')
})
