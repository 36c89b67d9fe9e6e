// The kernel matchers on a recorded result (an H100's tiled sgemm, tests/fixtures/results): a TFLOPS floor on every
// timed case, and a comparison with another result that must clear the noise as the CI guard's does.
import { expect, it } from 'vitest'
import '../../src/vitest/matchers.js'
import type { KernelBenchResult } from '../../src/shared/results.js'
import { loadFixture } from '../fixtures/results/index.js'

const tiled = loadFixture('sgemm-verdicts').result!

/** The same result under another name, every median `factor` times as long. */
function slowed(bench: string, factor: number): KernelBenchResult {
  return { ...tiled, bench, cases: tiled.cases.map((c) => (c.summary ? { ...c, summary: { ...c.summary, median: c.summary.median * factor } } : c)) }
}

it('toReachTflops passes when every timed case reaches the floor, and names the cases below it', () => {
  // 17.4, 15.2, 18.8 and 16.7 TFLOPS
  expect(tiled).toReachTflops(15)
  expect(tiled).not.toReachTflops(16)
  expect(() => expect(tiled).toReachTflops(17)).toThrow('tiled sgemm is below 17 TFLOPS on 8192x4096x8192 (15.2 TFLOPS), 8192x8192x8192 (16.7 TFLOPS)')
  expect(() => expect({ ...tiled, cases: [] }).toReachTflops(1)).toThrow('tiled sgemm has no timed case')
})

it('toOutperform passes only beyond max(tolerance, noiseFactor × noise) on every case, on the same GPU', () => {
  const naive = slowed('naive', 1.2)
  expect(tiled).toOutperform(naive)
  expect(naive).not.toOutperform(tiled)
  // 3% faster: within the default 5% tolerance, beyond 3 × the combined cvs (at most 1.9%) when the tolerance is 1%.
  const close = slowed('close', 1.03)
  expect(tiled).not.toOutperform(close)
  expect(() => expect(tiled).toOutperform(close)).toThrow(/^tiled sgemm does not outperform close beyond the noise on:\n {2}4096x4096x4096: 17\.4 TFLOPS vs baseline 16\.9 .*within the bound/)
  expect(tiled).toOutperform(close, { tolerance: 0.01 })
  const elsewhere = { ...naive, device: { ...naive.device!, name: 'NVIDIA A100-SXM4-80GB' } }
  expect(() => expect(tiled).toOutperform(elsewhere)).toThrow(/was measured on NVIDIA A100-SXM4-80GB, not compared/)
  expect(() => expect(tiled).toOutperform({ ...naive, cases: [] })).toThrow('tiled sgemm and naive have no timed case in common')
})
