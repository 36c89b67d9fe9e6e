import { describe, expect, it } from 'vitest'
import { geometricMean, quantile, summarize } from '../../src/shared/stats.js'

describe('summarize', () => {
  it('summarizes an odd number of samples given in any order', () => {
    expect(summarize([3, 1, 2])).toEqual({ n: 3, mean: 2, median: 2, min: 1, max: 3, stdev: 1, cv: 0.5 })
  })

  it('takes the median of an even count as the mean of the middle two and uses the n-1 stdev', () => {
    const s = summarize([9, 2, 4, 7, 4, 5, 4, 5])
    expect(s.n).toBe(8)
    expect(s.mean).toBe(5)
    expect(s.median).toBe(4.5)
    expect(s.min).toBe(2)
    expect(s.max).toBe(9)
    // Squared deviations sum to 32; the population stdev would be 2 instead.
    expect(s.stdev).toBeCloseTo(Math.sqrt(32 / 7), 12)
    expect(s.cv).toBeCloseTo(Math.sqrt(32 / 7) / 5, 12)
  })

  it('gives stdev and cv 0 for a single sample', () => {
    expect(summarize([0.25])).toEqual({ n: 1, mean: 0.25, median: 0.25, min: 0.25, max: 0.25, stdev: 0, cv: 0 })
  })

  it('gives cv 0 when the mean is 0', () => {
    const s = summarize([-1, 1])
    expect(s.stdev).toBeCloseTo(Math.SQRT2, 12)
    expect(s.cv).toBe(0)
  })

  it('stays exact for a tiny spread on a large mean', () => {
    // sum(x²) − n·mean² would lose these deviations entirely in doubles.
    const s = summarize([1e9 + 1, 1e9 + 2, 1e9 + 3])
    expect(s.stdev).toBe(1)
    expect(s.median).toBe(1e9 + 2)
  })

  it('does not reorder the caller’s array', () => {
    const samples = [3, 1, 2]
    summarize(samples)
    expect(samples).toEqual([3, 1, 2])
  })

  it('throws on an empty array', () => {
    expect(() => summarize([])).toThrow(/no samples/)
  })
})

describe('geometricMean', () => {
  it('computes known values', () => {
    expect(geometricMean([1, 4, 16])).toBeCloseTo(4, 12)
    expect(geometricMean([2, 8])).toBeCloseTo(4, 12)
    expect(geometricMean([7])).toBeCloseTo(7, 12)
  })

  it('does not overflow where the plain product would', () => {
    const values = Array.from({ length: 1000 }, () => 1e300)
    expect(geometricMean(values) / 1e300).toBeCloseTo(1, 9)
  })

  it('throws on an empty array', () => {
    expect(() => geometricMean([])).toThrow(/no values/)
  })

  it.each([0, -2, NaN])('throws on the non-positive value %s', (bad) => {
    expect(() => geometricMean([1, bad, 3])).toThrow(/positive/)
  })
})

describe('quantile', () => {
  it('interpolates between the nearest ranks, the ends being the least and the greatest value', () => {
    const sorted = [1, 2, 4, 8, 16]
    expect(quantile(sorted, 0)).toBe(1)
    expect(quantile(sorted, 1)).toBe(16)
    expect(quantile(sorted, 0.5)).toBe(4)
    expect(quantile(sorted, 0.25)).toBe(2)
    // h = 4 × 0.9 = 3.6: 8 + 0.6 × (16 − 8).
    expect(quantile(sorted, 0.9)).toBeCloseTo(12.8, 12)
    expect(quantile([3], 0.95)).toBe(3)
  })

  it('agrees with summarize on the median, odd or even count', () => {
    for (const values of [[5, 1, 3], [4, 1, 3, 2]]) {
      expect(quantile([...values].sort((a, b) => a - b), 0.5)).toBe(summarize(values).median)
    }
  })

  it('refuses no values and a q outside [0, 1]', () => {
    expect(() => quantile([], 0.5)).toThrow('no values')
    expect(() => quantile([1], 1.5)).toThrow('q must be in [0, 1]')
    expect(() => quantile([1], Number.NaN)).toThrow('q must be in [0, 1]')
  })
})
