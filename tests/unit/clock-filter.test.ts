import { describe, expect, it } from 'vitest'
import { dropThrottled, THROTTLE_FRACTION, type ClockedSample } from '../../src/shared/clock-filter.js'

const at = (ms: number, smClockMHz: number): ClockedSample => ({ ms, smClockMHz })

describe('dropThrottled', () => {
  it('uses nvbench’s 75% threshold by default', () => {
    expect(THROTTLE_FRACTION).toBe(0.75)
  })

  it('keeps a sample exactly at 75% of the max clock and drops one just below', () => {
    const r = dropThrottled([at(1, 2000), at(2, 1500), at(3, 1499.9), at(4, 1980)], 2000)
    expect(r.kept).toEqual([1, 2, 4])
    expect(r.dropped).toBe(1)
    expect(r.meanClockMHz).toBeCloseTo((2000 + 1500 + 1980) / 3, 9)
  })

  it('honours a custom fraction', () => {
    const r = dropThrottled([at(1, 1900), at(2, 1700)], 2000, 0.9)
    expect(r.kept).toEqual([1])
    expect(r.dropped).toBe(1)
    expect(r.meanClockMHz).toBe(1900)
  })

  it('keeps samples with an unknown clock but leaves them out of the mean clock', () => {
    const r = dropThrottled([at(1, 0), at(2, NaN), at(3, -1), at(4, 1800), at(5, 100)], 2000)
    expect(r.kept).toEqual([1, 2, 3, 4])
    expect(r.dropped).toBe(1)
    expect(r.meanClockMHz).toBe(1800)
  })

  it('reports NaN as the mean clock when no kept sample has a known clock', () => {
    const r = dropThrottled([at(1, 0), at(2, NaN)], 2000)
    expect(r.kept).toEqual([1, 2])
    expect(r.meanClockMHz).toBeNaN()
  })

  it('reports NaN as the mean clock when every sample is dropped', () => {
    const r = dropThrottled([at(1, 300), at(2, 400)], 2000)
    expect(r).toEqual({ kept: [], dropped: 2, meanClockMHz: NaN })
  })

  it.each([0, -1, NaN])('drops nothing when the max clock is unknown (%s)', (maxClockMHz) => {
    const r = dropThrottled([at(1, 300), at(2, 1800), at(3, 0)], maxClockMHz)
    expect(r.kept).toEqual([1, 2, 3])
    expect(r.dropped).toBe(0)
    expect(r.meanClockMHz).toBe(1050)
  })

  it('handles no samples', () => {
    expect(dropThrottled([], 2000)).toEqual({ kept: [], dropped: 0, meanClockMHz: NaN })
  })
})
