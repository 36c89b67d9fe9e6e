import { describe, expect, it } from 'vitest'
import {
  leastTimingMs,
  LONG_KERNEL_MS,
  NOISE_STABLE_MIN_SAMPLES,
  NOISE_STABLE_SPREAD,
  NOISE_STABLE_WINDOW,
  stopReason,
  type StopReason,
} from '../../src/shared/stopping.js'
import type { StoppingOptions } from '../../src/spec/options.js'

const opts = (overrides: Partial<StoppingOptions> = {}): StoppingOptions => ({
  minIterations: 5,
  maxIterations: 10_000,
  targetCv: 0.01,
  minTimeMs: 0,
  longKernelMinTimeMs: 0,
  maxTimeMs: 1e9,
  ...overrides,
})

/** Numerical Recipes LCG: deterministic uniform numbers in [0, 1). */
function lcg(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

/** Feeds `next(i)` one sample at a time and asks after each, as the engine will; each sample costs msPerSample of wall time. */
function runUntilStop(next: (i: number) => number, o: StoppingOptions, msPerSample = 0) {
  const samples: number[] = []
  for (;;) {
    samples.push(next(samples.length))
    const reason: StopReason | undefined = stopReason(samples, samples.length * msPerSample, o)
    if (reason !== undefined) return { n: samples.length, reason }
    if (samples.length > 100_000) throw new Error('never stopped')
  }
}

describe('stopping constants', () => {
  it('match the documented rule', () => {
    expect([NOISE_STABLE_WINDOW, NOISE_STABLE_MIN_SAMPLES, NOISE_STABLE_SPREAD, LONG_KERNEL_MS]).toEqual([10, 20, 0.05, 1])
  })
})

describe('max-time', () => {
  it('stops at maxTimeMs even below minIterations', () => {
    expect(stopReason([1], 100, opts({ maxTimeMs: 100 }))).toBe('max-time')
    expect(stopReason([1], 99.9, opts({ maxTimeMs: 100 }))).toBeUndefined()
  })

  it('takes priority over max-iterations', () => {
    expect(stopReason([1, 1, 1], 100, opts({ maxIterations: 3, maxTimeMs: 100 }))).toBe('max-time')
  })

  it('with no samples, waits for one at the limit but stops once past it', () => {
    expect(stopReason([], 100, opts({ maxTimeMs: 100 }))).toBeUndefined()
    expect(stopReason([], 0, opts({ maxTimeMs: 0 }))).toBeUndefined()
    expect(stopReason([], 100.1, opts({ maxTimeMs: 100 }))).toBe('max-time')
  })
})

describe('max-iterations', () => {
  it('stops at maxIterations on a stream that never settles', () => {
    // Alternating 1, 3 keeps the CV far above target and still moving at small n.
    const r = runUntilStop((i) => (i % 2 === 0 ? 1 : 3), opts({ maxIterations: 12, targetCv: 0.01 }))
    expect(r).toEqual({ n: 12, reason: 'max-iterations' })
  })

  it('wins over minIterations and minTimeMs', () => {
    expect(stopReason([1, 1], 0, opts({ maxIterations: 2, minIterations: 5, minTimeMs: 50 }))).toBe('max-iterations')
  })
})

describe('target-cv', () => {
  it('stops a quiet stream exactly at minIterations', () => {
    const rand = lcg(7)
    // ±0.1% jitter: CV ≈ 0.0006, under the 0.01 target from the start.
    const r = runUntilStop(() => 1 + 0.001 * (2 * rand() - 1), opts({ minIterations: 8 }))
    expect(r).toEqual({ n: 8, reason: 'target-cv' })
  })

  it('does not stop before minTimeMs however quiet the stream', () => {
    const r = runUntilStop(() => 2, opts({ minIterations: 5, minTimeMs: 50 }), 1)
    expect(r).toEqual({ n: 50, reason: 'target-cv' })
    const samples = Array.from({ length: 500 }, () => 2)
    expect(stopReason(samples, 49.9, opts({ minTimeMs: 50 }))).toBeUndefined()
  })

  it('requires the CV to be strictly below target', () => {
    // [1, 3] has stdev √2 and mean 2: CV = √2 / 2.
    expect(stopReason([1, 3], 0, opts({ minIterations: 2, targetCv: Math.SQRT2 / 2 }))).toBeUndefined()
    expect(stopReason([1, 3], 0, opts({ minIterations: 2, targetCv: Math.SQRT2 / 2 + 1e-9 }))).toBe('target-cv')
  })

  it('takes priority over noise-stable', () => {
    // A constant stream is both under target and perfectly stable.
    const samples = Array.from({ length: 30 }, () => 1)
    expect(stopReason(samples, 0, opts())).toBe('target-cv')
  })
})

describe('a long kernel', () => {
  // Each sample costs its own runtime plus 2 ms of flush, padding and host work.
  const longKernel = opts({ minTimeMs: 50, longKernelMinTimeMs: 500 })

  it('is timed for longKernelMinTimeMs however quiet its samples', () => {
    const r = runUntilStop(() => 5.7, longKernel, 7.7)
    expect(r).toEqual({ n: 65, reason: 'target-cv' })
    expect(stopReason(Array.from({ length: 64 }, () => 5.7), 499.9, longKernel)).toBeUndefined()
  })

  it('starts at a median of 1 ms', () => {
    expect(stopReason([1, 1, 1, 1, 1], 60, longKernel)).toBeUndefined()
    expect(stopReason([0.999, 0.999, 0.999, 0.999, 0.999], 60, longKernel)).toBe('target-cv')
  })

  it('is judged on the median, so a stall of one sample does not make a short kernel long', () => {
    // Their mean is 1.075 ms, their median 0.5 ms.
    const samples = [...Array.from({ length: 19 }, () => 0.5), 12]
    expect(stopReason(samples, 60, opts({ minTimeMs: 50, longKernelMinTimeMs: 500, targetCv: 3 }))).toBe('target-cv')
  })

  it('leaves a longer minTimeMs in force, and maxTimeMs still ends it', () => {
    const samples = Array.from({ length: 100 }, () => 5.7)
    expect(stopReason(samples, 600, opts({ minTimeMs: 800, longKernelMinTimeMs: 500 }))).toBeUndefined()
    expect(stopReason(samples, 800, opts({ minTimeMs: 800, longKernelMinTimeMs: 500 }))).toBe('target-cv')
    expect(stopReason([5.7, 5.7], 300, opts({ longKernelMinTimeMs: 500, maxTimeMs: 300 }))).toBe('max-time')
  })
})

describe('leastTimingMs', () => {
  const o = opts({ minTimeMs: 50, longKernelMinTimeMs: 250 })

  it("is longKernelMinTimeMs for a median of 1 ms or more, minTimeMs below it and before any sample is kept", () => {
    expect(leastTimingMs([3.2, 3.3, 3.2], 10, o)).toBe(250)
    expect(leastTimingMs([0.2, 0.3], 10, o)).toBe(50)
    // The first batch of a case can keep nothing (audited, or throttled): the time is then asked with no samples.
    expect(leastTimingMs([], 10, o)).toBe(50)
  })
})

describe('noise-stable', () => {
  const seeds = [1, 2, 3, 4, 5, 42, 123, 999]

  it.each(seeds)('stops a noisy but stationary stream early (seed %i)', (seed) => {
    const rand = lcg(seed)
    // ±10% uniform jitter: CV ≈ 0.058, never under the 0.01 target.
    const r = runUntilStop(() => 1 + 0.1 * (2 * rand() - 1), opts())
    expect(r.reason).toBe('noise-stable')
    expect(r.n).toBeGreaterThanOrEqual(NOISE_STABLE_MIN_SAMPLES)
    expect(r.n).toBeLessThan(60)
  })

  it.each(seeds)('keeps going on a drifting level (seed %i)', (seed) => {
    const rand = lcg(seed)
    // The level climbs 1% per sample, so each new sample still moves the noise estimate.
    const r = runUntilStop((i) => (1 + 0.01 * i) * (1 + 0.02 * (2 * rand() - 1)), opts({ maxIterations: 100 }))
    expect(r).toEqual({ n: 100, reason: 'max-iterations' })
  })

  it('waits for max(minIterations, 20) samples even when the CV is already constant', () => {
    // targetCv 0 can never be met, so only noise-stable can stop a constant stream.
    expect(runUntilStop(() => 1, opts({ targetCv: 0, minIterations: 5 }))).toEqual({ n: 20, reason: 'noise-stable' })
    expect(runUntilStop(() => 1, opts({ targetCv: 0, minIterations: 30 }))).toEqual({ n: 30, reason: 'noise-stable' })
  })

  it('judges the prefixes ending at each of the last 10 samples, no more and no fewer', () => {
    // One outlier in a flat stream of 200: every prefix that contains it has nearly the same CV, and every
    // prefix without it has CV 0. So the window is stable exactly when its oldest prefix already holds the outlier.
    const withOutlierAt = (index: number) => Array.from({ length: 200 }, (_, i) => (i === index ? 5 : 1))
    const o = opts({ targetCv: 0 })
    expect(stopReason(withOutlierAt(200 - NOISE_STABLE_WINDOW), 0, o)).toBe('noise-stable')
    expect(stopReason(withOutlierAt(200 - NOISE_STABLE_WINDOW + 1), 0, o)).toBeUndefined()
  })
})
