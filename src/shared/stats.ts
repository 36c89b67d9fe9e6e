export interface SampleSummary {
  n: number
  mean: number
  median: number
  min: number
  max: number
  stdev: number
  cv: number
}

export function summarize(samples: readonly number[]): SampleSummary {
  const n = samples.length
  if (n === 0) {
    throw new Error('summarize: no samples to summarize')
  }
  const sorted = [...samples].sort((a, b) => a - b)
  const mean = sorted.reduce((sum, x) => sum + x, 0) / n
  const mid = Math.floor(n / 2)
  const median = n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
  // Two passes (mean first, then squared deviations) avoid the cancellation of
  // sum(x²) − n·mean², which matters when runtimes vary by well under 1%.
  const squaredDeviations = sorted.reduce((sum, x) => sum + (x - mean) ** 2, 0)
  const stdev = n > 1 ? Math.sqrt(squaredDeviations / (n - 1)) : 0
  return {
    n,
    mean,
    median,
    min: sorted[0]!,
    max: sorted[n - 1]!,
    stdev,
    cv: mean === 0 ? 0 : stdev / mean,
  }
}

export function geometricMean(values: readonly number[]): number {
  if (values.length === 0) {
    throw new Error('geometricMean: no values')
  }
  let logSum = 0
  for (const v of values) {
    // `!(v > 0)` also rejects NaN.
    if (!(v > 0)) {
      throw new Error(`geometricMean: values must be positive, got ${v}`)
    }
    // Summing logs instead of multiplying keeps many large GFLOPS figures from overflowing.
    logSum += Math.log(v)
  }
  return Math.exp(logSum / values.length)
}

/**
 * The q-quantile (0 ≤ q ≤ 1) of values sorted ascending, interpolated linearly between the two nearest ranks (as
 * numpy's default and R's type 7): the 0- and 1-quantiles are the least and the greatest value.
 */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new Error('quantile: no values')
  if (!(q >= 0 && q <= 1)) throw new Error(`quantile: q must be in [0, 1], got ${q}`)
  const h = (sorted.length - 1) * q
  const lo = Math.floor(h)
  const below = sorted[lo]!
  return lo + 1 < sorted.length ? below + (h - lo) * (sorted[lo + 1]! - below) : below
}
