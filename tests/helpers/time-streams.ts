// Streams of kernel times for the statistics tests: seeded random ones (the same numbers on every machine and run),
// and ideal ones with an exact median.
import { normalQuantile } from '../../src/shared/median-change.js'

/** mulberry32: a 32-bit generator of uniform numbers in [0, 1), enough for simulations of a few thousand streams. */
export function seededUniform(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Standard normal numbers by the Box–Muller transform. */
export function seededNormal(seed: number): () => number {
  const uniform = seededUniform(seed)
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform())
}

/** `n` kernel times around `median` ms with coefficient of variation `cv` (normal noise, so the median is `median`). */
export function timeStream(normal: () => number, n: number, median: number, cv: number): number[] {
  return Array.from({ length: n }, () => median * (1 + cv * normal()))
}

/**
 * `n` (odd) times whose median is exactly `median` and whose spread is a normal's with coefficient of variation
 * `cv`: the normal's quantiles at (i + ½)/n, so tests of exact figures need no random numbers.
 */
export function idealStream(n: number, median: number, cv: number): number[] {
  if (n % 2 === 0) throw new Error(`idealStream: n must be odd so that the median is a sample, got ${n}`)
  return Array.from({ length: n }, (_, i) => median * (1 + cv * normalQuantile((i + 0.5) / n)))
}
