export interface ClockedSample {
  ms: number
  smClockMHz: number
}

export interface ClockFilterResult {
  /** Runtimes (ms) of the kept samples, in input order. */
  kept: number[]
  dropped: number
  /** Mean SM clock of the kept samples whose clock is known; NaN when there is none. */
  meanClockMHz: number
}

/** nvbench discards samples taken below 75% of the maximum SM clock as throttled. */
export const THROTTLE_FRACTION = 0.75

// A clock of 0, a negative value or NaN is how a missing NVML reading arrives; `> 0` is false for all three.
const isKnown = (mhz: number): boolean => mhz > 0

export function dropThrottled(
  samples: readonly ClockedSample[],
  maxClockMHz: number,
  fraction = THROTTLE_FRACTION,
): ClockFilterResult {
  // Without a known maximum there is nothing to compare against, so nothing is dropped.
  const floorMHz = isKnown(maxClockMHz) ? fraction * maxClockMHz : -Infinity
  const kept: number[] = []
  let dropped = 0
  let clockSum = 0
  let clockCount = 0
  for (const { ms, smClockMHz } of samples) {
    if (!isKnown(smClockMHz)) {
      // An unknown clock is no evidence of throttling: keep the sample, but it cannot inform the mean clock.
      kept.push(ms)
    } else if (smClockMHz >= floorMHz) {
      kept.push(ms)
      clockSum += smClockMHz
      clockCount++
    } else {
      dropped++
    }
  }
  return { kept, dropped, meanClockMHz: clockCount > 0 ? clockSum / clockCount : NaN }
}
