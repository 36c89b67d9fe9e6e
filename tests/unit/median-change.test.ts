// The CI gate's statistics on simulated streams with fixed seeds (src/shared/median-change.ts): the order-statistic
// intervals cover the truth at the claimed rate, a planted shift is found, identical streams are unchanged, and a
// stream with two modes or too few samples is inconclusive. Pure arithmetic: nothing depends on the machine's speed.
import { describe, expect, it } from 'vitest'
import {
  bimodalSplit,
  compareBlocks,
  formatChangeInterval,
  compareStreams,
  judgeChange,
  medianEstimate,
  medianRanks,
  normalQuantile,
  type ChangeEstimate, tQuantile } from '../../src/shared/median-change.js'
import { seededNormal, seededUniform, timeStream } from '../helpers/time-streams.js'

const covers = (estimate: ChangeEstimate, truth: number) => estimate.interval !== undefined && estimate.interval.low <= truth && truth <= estimate.interval.high

describe('order statistics of the median', () => {
  it('normalQuantile matches tabulated values', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 6)
    expect(normalQuantile(0.5)).toBe(0)
    expect(normalQuantile(0.995)).toBeCloseTo(2.575829, 6)
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232, 6)
    expect(() => normalQuantile(1)).toThrow(RangeError)
  })

  it('medianRanks gives the textbook ranks, and none for too short a stream', () => {
    expect(medianRanks(5, 0.95)).toBeUndefined()
    expect(medianRanks(6, 0.95)).toMatchObject({ lower: 0, upper: 5, tail: expect.closeTo(1 / 64, 12) })
    // n = 100 at 95%: the 40th and 61st values (1-based), coverage 96.5%.
    const hundred = medianRanks(100, 0.95)!
    expect([hundred.lower, hundred.upper]).toEqual([39, 60])
    expect(1 - 2 * hundred.tail).toBeCloseTo(0.9648, 4)
    // Past n = 1074, 0.5ⁿ underflows: the log-space sum still finds ranks near n/2 ∓ z·√n/2.
    const large = medianRanks(5000, 0.95)!
    expect(Math.abs(large.lower - (2500 - 1.96 * Math.sqrt(5000) / 2))).toBeLessThan(2)
  })

  it('medianEstimate: the log standard error is about 1.25·cv/√n for a normal stream', () => {
    const estimate = medianEstimate(timeStream(seededNormal(1), 400, 10, 0.02), 0.95)!
    expect(estimate.n).toBe(400)
    expect(estimate.median).toBeCloseTo(10, 1)
    expect(estimate.logSe / ((1.2533 * 0.02) / Math.sqrt(400))).toBeGreaterThan(0.8)
    expect(estimate.logSe / ((1.2533 * 0.02) / Math.sqrt(400))).toBeLessThan(1.25)
  })
})

describe('two independent streams', () => {
  it('the 95% interval covers the true change at 95% (±3 binomial sd) of 5000 simulated pairs, normal and skewed', () => {
    const normal = seededNormal(7)
    const uniform = seededUniform(8)
    // A skewed stream: 10 ms plus an exponential tail of mean 0.3 ms, so its median is 10 + 0.3·ln 2.
    const skewed = (n: number, scale: number) => Array.from({ length: n }, () => scale * (10 - 0.3 * Math.log(1 - uniform())))
    const skewedMedian = 10 + 0.3 * Math.LN2
    let normalCovered = 0
    let skewedCovered = 0
    const trials = 5000
    for (let t = 0; t < trials; t++) {
      // The candidate runs 3% longer: its speed is 1/1.03 − 1 of the reference's.
      if (covers(compareStreams(timeStream(normal, 100, 5, 0.05), timeStream(normal, 80, 5 * 1.03, 0.05)), 1 / 1.03 - 1)) normalCovered++
      const truth = skewedMedian / (1.01 * skewedMedian) - 1
      if (covers(compareStreams(skewed(120, 1), skewed(120, 1.01)), truth)) skewedCovered++
    }
    // One binomial sd of the rate over 5000 trials is 0.31%.
    for (const covered of [normalCovered, skewedCovered]) {
      expect(covered / trials).toBeGreaterThan(0.94)
      expect(covered / trials).toBeLessThan(0.96)
    }
  })

  it('a planted 2% slowdown on 200 samples at CV 1% is found', () => {
    const normal = seededNormal(11)
    const estimate = compareStreams(timeStream(normal, 200, 1, 0.01), timeStream(normal, 200, 1.02, 0.01))
    const interval = estimate.interval!
    expect(interval.change).toBeCloseTo(1 / 1.02 - 1, 2)
    // Half-width ≈ 1.96 · √2 · 1.25 · 1% / √200 ≈ 0.25%.
    expect(interval.high - interval.low).toBeLessThan(0.008)
    expect(interval.high).toBeLessThan(0)
    expect(judgeChange(estimate, 0.01).kind).toBe('regression')
    // At a 2% tolerance the interval straddles the line: inconclusive, never unchanged.
    expect(judgeChange(estimate, 0.02)).toMatchObject({ kind: 'inconclusive', reason: expect.stringContaining('straddles the tolerance 2.0%') })
  })

  it('identical streams, and two draws of the same stream, are unchanged', () => {
    const normal = seededNormal(12)
    const stream = timeStream(normal, 200, 1, 0.01)
    const same = compareStreams(stream, stream)
    expect(same.interval!.change).toBe(0)
    expect(judgeChange(same, 0.02).kind).toBe('unchanged')
    const redrawn = compareStreams(stream, timeStream(normal, 200, 1, 0.01))
    expect(judgeChange(redrawn, 0.02)).toMatchObject({ kind: 'unchanged', reason: expect.stringContaining('within the tolerance 2.0%') })
  })

  it('a bimodal stream is inconclusive even when its interval looks narrow', () => {
    const normal = seededNormal(13)
    const uniform = seededUniform(14)
    const reference = timeStream(normal, 200, 1, 0.005)
    // 40% of the calls take the slow path, 8% slower.
    const candidate = reference.map((t) => (uniform() < 0.4 ? 1.08 * t : t))
    expect(bimodalSplit(reference)).toBeUndefined()
    expect(bimodalSplit(candidate)).toMatchObject({ lowerShare: expect.closeTo(0.6, 1) })
    const verdict = judgeChange(compareStreams(reference, candidate), 0.02)
    expect(verdict.kind).toBe('inconclusive')
    expect(verdict.reason).toMatch(/^the candidate is bimodal \(\d+% of samples near 1\.0\d+, \d+% near 1\.0\d+\)/)
  })

  it('unimodal streams are not called bimodal: normal, skewed, a few outliers, a coarse timer', () => {
    const normal = seededNormal(15)
    const uniform = seededUniform(16)
    for (let t = 0; t < 50; t++) {
      expect(bimodalSplit(timeStream(normal, 200, 1, 0.02))).toBeUndefined()
      expect(bimodalSplit(Array.from({ length: 200 }, () => 10 - Math.log(1 - uniform())))).toBeUndefined()
      expect(bimodalSplit(Array.from({ length: 200 }, () => (uniform() < 0.05 ? 15 : 10) * (1 + 0.01 * normal())))).toBeUndefined()
      // Rounded to 0.5 µs ticks: three or four values only.
      expect(bimodalSplit(Array.from({ length: 200 }, () => Math.round((10 + 0.4 * normal()) * 2) / 2))).toBeUndefined()
    }
  })

  it('too few samples give no interval and an inconclusive verdict that says so', () => {
    const estimate = compareStreams([1, 1.01, 0.99, 1, 1.02], [1, 1, 1, 1, 1, 1, 1])
    expect(estimate.interval).toBeUndefined()
    expect(judgeChange(estimate, 0.02)).toEqual({ kind: 'inconclusive', reason: 'too few samples in the reference (5) for a 95% interval of its median' })
  })
})

describe("Student's t quantile", () => {
  it('matches the tables to their four digits', () => {
    for (const [df, t] of [[1, 12.706], [2, 4.303], [3, 3.182], [4, 2.776], [5, 2.571], [7, 2.365], [10, 2.228], [30, 2.042], [1000, 1.962]] as const) {
      expect(tQuantile(0.975, df)).toBeCloseTo(t, 3)
    }
    expect(tQuantile(0.995, 9)).toBeCloseTo(3.25, 2)
    expect(tQuantile(0.025, 7)).toBeCloseTo(-tQuantile(0.975, 7), 12)
    expect(() => tQuantile(0.975, 2.5)).toThrow(RangeError)
  })
})

describe('paired rounds in blocks', () => {
  /**
   * Blocks of two rounds whose times drift together (a clock that steps, a board that warms), each block with both
   * sides at a new place in memory (an effect of its own per side and block); the candidate is `factor` slower.
   */
  function blocks(normal: () => number, count: number, factor: number): { a: number[]; b: number[]; block: number[] } {
    let drift = 1
    const a: number[] = []
    const b: number[] = []
    const block: number[] = []
    for (let k = 0; k < count; k++) {
      const placeA = 1 + 0.004 * normal()
      const placeB = 1 + 0.004 * normal()
      for (let round = 0; round < 2; round++) {
        drift *= 1 + 0.01 * normal()
        a.push(drift * placeA * (1 + 0.003 * normal()))
        b.push(drift * placeB * factor * (1 + 0.003 * normal()))
        block.push(k)
      }
    }
    return { a, b, block }
  }

  it("the interval covers the true ratio at its claimed 95% (±3 binomial sd) over 1000 simulated runs, drift cancelled", () => {
    const normal = seededNormal(21)
    let covered = 0
    for (let t = 0; t < 1000; t++) {
      const { a, b, block } = blocks(normal, 12, 1.02)
      if (covers(compareBlocks(a, b, block), 1 / 1.02 - 1)) covered++
    }
    const sd = Math.sqrt((0.95 * 0.05) / 1000)
    expect(Math.abs(covered / 1000 - 0.95)).toBeLessThan(3 * sd)
  })

  it('a 2% slower candidate under drift ten times larger than its noise is a regression at a 1% tolerance', () => {
    const { a, b, block } = blocks(seededNormal(22), 20, 1.02)
    const estimate = compareBlocks(a, b, block)
    expect(estimate.interval!.high).toBeLessThan(-0.01)
    expect(judgeChange(estimate, 0.01).kind).toBe('regression')
    // The same rounds as two independent streams: the drift swamps the change.
    expect(judgeChange(compareStreams(a, b), 0.01).kind).toBe('inconclusive')
  })

  it('identical sides are unchanged', () => {
    const { a, block } = blocks(seededNormal(23), 10, 1)
    expect(judgeChange(compareBlocks(a, a, block), 0.02).kind).toBe('unchanged')
  })
})

describe('judgeChange', () => {
  const at = (change: number, low: number, high: number): ChangeEstimate => ({ interval: { change, low, high, confidence: 0.95 }, doubts: [] })

  it('judges the whole interval against the tolerance, and says why a straddling interval is inconclusive', () => {
    expect(judgeChange(at(-0.042, -0.053, -0.031), 0.02)).toEqual({
      kind: 'regression',
      reason: 'the whole interval is slower than the tolerance 2.0%',
    })
    expect(formatChangeInterval(at(-0.042, -0.053, -0.031).interval!)).toBe('-4.2% [-5.3%, -3.1%]')
    expect(judgeChange(at(0.05, 0.03, 0.07), 0.02).kind).toBe('improvement')
    expect(judgeChange(at(0, -0.02, 0.02), 0.02).kind).toBe('unchanged')
    expect(judgeChange(at(-0.03, -0.06, 0), 0.02).reason).toContain('too wide to judge (half-width 3.0% above the tolerance 2.0%)')
    // Wide, but wholly beyond the tolerance: still a regression.
    expect(judgeChange(at(-0.2, -0.3, -0.1), 0.02).kind).toBe('regression')
    expect(() => judgeChange(at(0, 0, 0), -1)).toThrow(RangeError)
  })
})
