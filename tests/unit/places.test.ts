// Where a case's buffers sit (src/shared/places.ts): the spacers that move them, and when a plain case moves.
import { describe, expect, it } from 'vitest'
import { LEAST_PLACES, placeBatchMs, spacerBytes, timeToMove } from '../../src/shared/places.js'

describe('spacerBytes', () => {
  it('draws whole 2 MiB pages below 128 MiB, at random', () => {
    const drawn = Array.from({ length: 200 }, () => spacerBytes())
    for (const bytes of drawn) {
      expect(bytes % (2 * 2 ** 20)).toBe(0)
      expect(bytes).toBeGreaterThanOrEqual(0)
      expect(bytes).toBeLessThan(128 * 2 ** 20)
    }
    // 200 draws of 64 sizes: fewer than 40 distinct ones has a chance below 1e-20.
    expect(new Set(drawn).size).toBeGreaterThan(40)
  })
})

describe('timeToMove', () => {
  /** The places a case timed for `totalMs` in batches of `batchMs` is timed at, for a least time of `leastMs`. */
  function places(totalMs: number, batchMs: number, leastMs: number): number[] {
    const lengths: number[] = []
    let placeStart = 0
    for (let now = batchMs; now <= totalMs; now += batchMs) {
      if (now === totalMs) break
      if (timeToMove(now - placeStart, now, leastMs, batchMs)) {
        lengths.push(now - placeStart)
        placeStart = now
      }
    }
    lengths.push(totalMs - placeStart)
    return lengths
  }

  it('times a case stopped at its least time at LEAST_PLACES places of equal length, in batches of half a place', () => {
    expect(placeBatchMs(50)).toBe(6.25)
    // minTimeMs 50 in batches of 6.25 ms: moves at 12.5, 25 and 37.5 ms.
    expect(places(50, placeBatchMs(50), 50)).toEqual([12.5, 12.5, 12.5, 12.5])
    expect(LEAST_PLACES).toBe(4)
  })

  it('moves at the batch end nearest to the place\'s time: batches a little shorter or longer still give four places', () => {
    // Stopped at the first batch end past 50 ms. Batches of 6 ms: 12 ms places and a short fifth; of 6.5 ms: 13 ms.
    expect(places(54, 6, 50)).toEqual([12, 12, 12, 12, 6])
    expect(places(52, 6.5, 50)).toEqual([13, 13, 13, 13])
  })

  it('moves after a whole batch: a batch longer than a place is one place', () => {
    expect(places(100, 25, 50)).toEqual([25, 25, 25, 25])
  })

  it('lengthens places as timing goes on: a case timed for 10 s moves about twenty times, and no place holds over a quarter of it', () => {
    const lengths = places(10_000, 1, 50)
    expect(lengths.length).toBeGreaterThan(LEAST_PLACES)
    expect(lengths.length).toBeLessThan(30)
    for (const ms of lengths) expect(ms).toBeLessThanOrEqual(10_000 / 4 + 1)
    expect(lengths.reduce((a, b) => a + b, 0)).toBe(10_000)
  })
})
