/**
 * The change between two medians of kernel times, with its confidence interval, and the verdict on it (the CI gate,
 * docs/ci-gate.md). Pure statistics: it lives in the lowest layer that holds statistics so that the guard, the
 * matchers, the reports and the device host (a paired A/B run could stop once its interval is narrow enough) can all
 * use it.
 *
 * Method: order statistics, not the bootstrap. The distribution-free interval of a median from its order statistics
 * needs no random numbers (deterministic without a seed), costs one sort, and keeps its coverage on the lumpy,
 * tick-quantised streams a GPU timer gives, where the bootstrap distribution of a median is itself lumpy. It also
 * reduces a stream to its median and the standard error of its logarithm, which a baseline file can keep per run
 * without the samples, and to which a between-run variance adds in the same units.
 *
 * Every change is one of speed (1 / time), as the guard's TFLOPS change: -0.031 is 3.1% slower than the reference.
 */
import { formatFraction } from './fraction.js'

/** A relative change of speed from a reference to a candidate, with its interval at `confidence` (0.95 = 95%). */
export interface ChangeInterval {
  change: number
  low: number
  high: number
  confidence: number
}

/** What a comparison found: the interval (absent when none exists at this confidence), and why it cannot be trusted. */
export interface ChangeEstimate {
  interval?: ChangeInterval
  /** Too few samples or rounds, a bimodal stream: any doubt makes the verdict inconclusive. */
  doubts: string[]
}

/** A stream's median and the standard error of its natural logarithm (a relative error: 0.004 ≈ 0.4%). */
export interface MedianEstimate {
  median: number
  logSe: number
  n: number
}

/** The spread between runs of one case (relative, 0.008 = 0.8%): measured from `runs` recorded runs, or assumed. */
export interface RunSpread {
  spread: number
  runs: number
  measured: boolean
}

/**
 * The spread between boards of one GPU model for one case (relative): measured from the runs of `boards` recorded
 * boards, or assumed. Counted where other boards' runs judge a run (src/baseline/verdict.ts).
 */
export interface BoardSpread {
  spread: number
  boards: number
  measured: boolean
}

export type ChangeVerdictKind = 'regression' | 'improvement' | 'unchanged' | 'inconclusive'

/** Whether a verdict says the speed changed: a regression or an improvement. */
export function isChange(kind: ChangeVerdictKind): boolean {
  return kind === 'regression' || kind === 'improvement'
}

export interface ChangeVerdict {
  kind: ChangeVerdictKind
  /** Why, in words: the interval against the tolerance, or the doubts. */
  reason: string
}

/** Below this many samples a stream is not tested for two modes: a fifth of it would be a handful of samples. */
const BIMODALITY_MIN_SAMPLES = 20
/** Each mode must hold this share of the stream: a rarer cluster of slow samples only nudges the median. */
const MODE_MIN_SHARE = 0.2
/** Ashman's D above which two groups are separate modes; one normal stream split at its mean gives D ≈ 2.65. */
const MODE_SEPARATION = 4

/**
 * The standard normal quantile Φ⁻¹(p), 0 < p < 1, by Acklam's rational approximation (relative error below 1.2e-9,
 * far below what an interval needs).
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile: p must be in (0, 1), got ${p}`)
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239]
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572]
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783]
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416]
  const tail = (q: number) =>
    (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1)
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)))
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)))
  const q = p - 0.5
  const r = q * q
  return ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
}

function checkConfidence(confidence: number): void {
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1), got ${confidence}`)
}

/**
 * The order statistics that bound the median of n values at `confidence`: 0-based indices `lower` and `upper` into
 * the sorted values, and `tail`, the chance that the median lies below `lower` (the same above `upper`), so the
 * coverage is 1 − 2·tail ≥ confidence. The number of values below the median is Binomial(n, ½). Undefined when n is too
 * small for any interval at this confidence (fewer than 6 values at 95%).
 */
export function medianRanks(n: number, confidence: number): { lower: number; upper: number; tail: number } | undefined {
  checkConfidence(confidence)
  const allowed = (1 - confidence) / 2
  // P(X ≤ k) summed in log space: 0.5ⁿ underflows past n = 1074.
  let logPmf = n * Math.log(0.5)
  let cdf = 0
  let lower = -1
  let tail = 0
  for (let k = 0; k < n; k++) {
    const next = cdf + Math.exp(logPmf)
    if (next > allowed) break
    cdf = next
    lower = k
    tail = cdf
    logPmf += Math.log((n - k) / (k + 1))
  }
  if (lower < 0) return undefined
  return { lower, upper: n - 1 - lower, tail }
}

function sortedCopy(values: readonly number[]): number[] {
  return [...values].sort((x, y) => x - y)
}

function medianOfSorted(sorted: readonly number[]): number {
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/**
 * A stream's median with the standard error of its logarithm, read off the order-statistic interval: its width in
 * logs over 2·z, where z is the normal quantile of the interval's actual coverage. Undefined when the stream is too
 * short for an interval at `confidence` (an empty one included). Times must be positive.
 */
export function medianEstimate(samples: readonly number[], confidence: number): MedianEstimate | undefined {
  const sorted = sortedCopy(samples)
  if (sorted.length === 0) return undefined
  if (!(sorted[0]! > 0)) throw new RangeError(`medianEstimate: times must be positive, got ${sorted[0]}`)
  const ranks = medianRanks(sorted.length, confidence)
  if (!ranks) return undefined
  const width = Math.log(sorted[ranks.upper]!) - Math.log(sorted[ranks.lower]!)
  return { median: medianOfSorted(sorted), logSe: width / (2 * normalQuantile(1 - ranks.tail)), n: sorted.length }
}

/**
 * Two modes in a stream, found simply: split the sorted stream where the two groups' summed squared deviations are
 * least (one-dimensional k-means with two groups, exact over every split that leaves each group MODE_MIN_SHARE of the
 * samples), then measure how far apart the groups are with Ashman's D = √2·|m₁ − m₂| / √(s₁² + s₂²). Bimodal when
 * D > MODE_SEPARATION. Each group's variance is at least tick²/12, the tick being the smallest step between distinct
 * samples, so a stream a coarse timer rounds to a few values is not called bimodal for its ticks. Streams shorter than
 * BIMODALITY_MIN_SAMPLES are not tested. Returns the split, or undefined when the stream is not bimodal.
 */
export function bimodalSplit(samples: readonly number[]): { lowerShare: number; separation: number; lowerMean: number; upperMean: number } | undefined {
  const n = samples.length
  if (n < BIMODALITY_MIN_SAMPLES) return undefined
  const sorted = sortedCopy(samples)
  let tick = Infinity
  for (let i = 1; i < n; i++) {
    const step = sorted[i]! - sorted[i - 1]!
    if (step > 0 && step < tick) tick = step
  }
  if (tick === Infinity) return undefined
  const prefix = [0]
  const prefixSquares = [0]
  for (const x of sorted) {
    prefix.push(prefix.at(-1)! + x)
    prefixSquares.push(prefixSquares.at(-1)! + x * x)
  }
  const group = (from: number, to: number) => {
    const count = to - from
    const mean = (prefix[to]! - prefix[from]!) / count
    const variance = Math.max(0, (prefixSquares[to]! - prefixSquares[from]!) / count - mean * mean)
    return { count, mean, variance }
  }
  const smallest = Math.ceil(MODE_MIN_SHARE * n)
  let best: { split: number; withinSquares: number } | undefined
  for (let split = smallest; split <= n - smallest; split++) {
    const lo = group(0, split)
    const hi = group(split, n)
    const withinSquares = lo.count * lo.variance + hi.count * hi.variance
    if (!best || withinSquares < best.withinSquares) best = { split, withinSquares }
  }
  if (!best) return undefined
  const lo = group(0, best.split)
  const hi = group(best.split, n)
  const floor = (tick * tick) / 12
  const separation = (Math.SQRT2 * (hi.mean - lo.mean)) / Math.sqrt(Math.max(lo.variance, floor) + Math.max(hi.variance, floor))
  return separation > MODE_SEPARATION ? { lowerShare: best.split / n, separation, lowerMean: lo.mean, upperMean: hi.mean } : undefined
}

/** What makes a stream's median untrustworthy: too few samples for an interval, or two modes. */
export function streamDoubts(name: string, samples: readonly number[], confidence: number): string[] {
  if (!medianRanks(samples.length, confidence)) {
    return [`too few samples in the ${name} (${samples.length}) for a ${formatLevel(confidence)} interval of its median`]
  }
  const modes = bimodalSplit(samples)
  if (!modes) return []
  const share = Math.round(modes.lowerShare * 100)
  return [
    `the ${name} is bimodal (${share}% of samples near ${modes.lowerMean.toPrecision(4)}, ${100 - share}% near ` +
      `${modes.upperMean.toPrecision(4)}): its median depends on which mode a run lands in`,
  ]
}

/** A confidence as a percentage: '95%', '99.9%'. */
export function formatLevel(confidence: number): string {
  return `${Number((confidence * 100).toFixed(2))}%`
}

/**
 * The interval of the speed change from the log of the time ratio (candidate / reference) and its variance, as a
 * normal interval on the log scale mapped back: speed change = exp(−log ratio) − 1.
 */
export function changeFromLogRatio(logRatio: number, variance: number, confidence: number): ChangeInterval {
  checkConfidence(confidence)
  if (!(variance >= 0)) throw new RangeError(`changeFromLogRatio: variance must be >= 0, got ${variance}`)
  return speedInterval(logRatio, normalQuantile(0.5 + confidence / 2) * Math.sqrt(variance), confidence)
}

/** The change of speed, exp(−log ratio) − 1, with the interval of a log ratio ± `halfWidth` mapped the same way. */
function speedInterval(logRatio: number, halfWidth: number, confidence: number): ChangeInterval {
  return { change: Math.exp(-logRatio) - 1, low: Math.exp(-logRatio - halfWidth) - 1, high: Math.exp(-logRatio + halfWidth) - 1, confidence }
}

/**
 * (a) Two independent streams of times: the change of speed from `reference`'s median to `candidate`'s. The log
 * ratio of the medians has variance se_ref² + se_cand² (each from medianEstimate), so the interval is
 * exp(−(ln m_cand − ln m_ref) ± z·√(se_ref² + se_cand²)) − 1.
 */
export function compareStreams(reference: readonly number[], candidate: readonly number[], confidence = 0.95): ChangeEstimate {
  const doubts = [...streamDoubts('reference', reference, confidence), ...streamDoubts('candidate', candidate, confidence)]
  const ref = medianEstimate(reference, confidence)
  const cand = medianEstimate(candidate, confidence)
  if (!ref || !cand) return { doubts }
  const interval = changeFromLogRatio(Math.log(cand.median / ref.median), ref.logSe ** 2 + cand.logSe ** 2, confidence)
  return { interval, doubts }
}

/**
 * P(|T| ≤ t) for Student's t with an integer ν ≥ 1 degrees of freedom, by the finite series of Abramowitz and Stegun
 * (26.7.3 and 26.7.4): with θ = atan(t / √ν), a sum of powers of cos θ, exact up to rounding.
 */
function tCentralProbability(t: number, df: number): number {
  const theta = Math.atan(t / Math.sqrt(df))
  const cos2 = Math.cos(theta) ** 2
  const odd = df % 2 === 1
  // Odd ν: (2/π)(θ + sin θ cos θ (1 + 2/3 cos²θ + (2·4)/(3·5) cos⁴θ + …)); even ν: sin θ (1 + 1/2 cos²θ + (1·3)/(2·4) cos⁴θ + …).
  let term = 1
  let sum = df >= (odd ? 3 : 2) ? 1 : 0
  for (let k = odd ? 3 : 2; k + 2 <= df; k += 2) {
    term *= ((k - 1) / k) * cos2
    sum += term
  }
  return odd ? (2 / Math.PI) * (theta + Math.sin(theta) * Math.cos(theta) * sum) : Math.sin(theta) * sum
}

/** Student's t quantile t_p(ν), p in (0, 1), for an integer ν ≥ 1: the series above, inverted by bisection. */
export function tQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`tQuantile: p must be in (0, 1), got ${p}`)
  if (!(Number.isInteger(df) && df >= 1)) throw new RangeError(`tQuantile: degrees of freedom must be an integer >= 1, got ${df}`)
  if (p < 0.5) return -tQuantile(1 - p, df)
  const central = 2 * p - 1
  let low = 0
  let high = 1
  while (tCentralProbability(high, df) < central) high *= 2
  for (let i = 0; i < 100 && high - low > 1e-12 * high; i++) {
    const mid = (low + high) / 2
    if (tCentralProbability(mid, df) < central) low = mid
    else high = mid
  }
  return (low + high) / 2
}

/** The fewest blocks of paired rounds with an interval of the change (two degrees of freedom: t = 4.30 at 95%). */
export const MIN_INTERVAL_BLOCKS = 3

/**
 * Each block's median log ratio of `candidate` to `reference` over its rounds (`blockOf[i]` is round i's block), in
 * the order the blocks first appear: the independent observations compareBlocks reads the change off.
 */
export function blockLogRatios(reference: readonly number[], candidate: readonly number[], blockOf: readonly number[]): { block: number; logRatio: number }[] {
  if (reference.length !== candidate.length || reference.length !== blockOf.length) {
    throw new RangeError(`compareBlocks: ${reference.length} reference rounds, ${candidate.length} candidate rounds, ${blockOf.length} block numbers`)
  }
  const byBlock = new Map<number, number[]>()
  reference.forEach((a, i) => {
    const b = candidate[i]!
    if (!(a > 0 && b > 0)) throw new RangeError(`compareBlocks: round ${i} has a time that is not positive (${a}, ${b})`)
    const block = blockOf[i]!
    byBlock.set(block, [...(byBlock.get(block) ?? []), Math.log(b / a)])
  })
  return [...byBlock].map(([block, ratios]) => ({ block, logRatio: medianOfSorted(sortedCopy(ratios)) }))
}

/**
 * How many pairs of processes' worth of evidence the process spread counts for, pooled with a case's own pairs
 * (compareBlocks). On two H100 runs of the example suite on two pairs (2026-11-27), 1, 2, 4 and 8 all gave no false
 * alarm and caught 96–98% of a real 2% slowdown on kernels of 20 µs or more, where the pairs' own spread alone caught 91%.
 */
export const PROCESS_SPREAD_WEIGHT = 4

/** compareBlocks' estimate, with the parts of its interval's half-width (in log ratio). */
export interface BlocksEstimate extends ChangeEstimate {
  /** The blocks' own part: what more blocks would narrow. */
  blocksHalfWidth?: number
  /** How far apart the pairs of processes read beyond what their blocks explain, as a standard deviation (2+ pairs). */
  pairSpread?: number
}

const average = (xs: readonly number[]) => xs.reduce((sum, x) => sum + x, 0) / xs.length

/**
 * (b) Paired A/B rounds in blocks, each block with both sides' buffers at a new place in memory: the change is read
 * off each block's median round ratio, and its interval is Student's t interval of their mean log (the blocks are
 * independent; the rounds within a block share the block's placement, so they are not). `blockOf[i]` is round i's
 * block. Fewer than 3 blocks give no interval.
 *
 * What differs between a base process and a head process and no block moves stays for the processes' life, so a case
 * is timed on `pairs` pairs of processes, block b on pair b mod `pairs`: the blocks' spread is taken within each pair,
 * and the processes' difference averages over the pairs. `processSd` is that difference for one pair, as a standard
 * deviation of the log ratio, measured over a whole suite; the case's own pairs say how far apart they read beyond
 * what their blocks explain, with pairs − 1 degrees of freedom. The two are pooled as variances, the process spread
 * counting as PROCESS_SPREAD_WEIGHT pairs' worth (with none given, the pairs' own spread stands alone): one case's two
 * pairs are too few to trust alone, and a case whose processes really read apart (a kernel that is bimodal from process
 * to process) still widens its interval. It is added in quadrature, over √pairs: no number of blocks shrinks it.
 */
export function compareBlocks(
  reference: readonly number[],
  candidate: readonly number[],
  blockOf: readonly number[],
  confidence = 0.95,
  processSd = 0,
  pairs = 1,
): BlocksEstimate {
  checkConfidence(confidence)
  const within = blocksWithinPairs(reference, candidate, blockOf, pairs)
  if ('doubts' in within) return within
  const { k, pairRatios, pairMeans, withinVariance, withinDf } = within
  const change = average(pairMeans)
  const blocksHalfWidth = tQuantile(0.5 + confidence / 2, withinDf) * Math.sqrt(withinVariance / k)
  let pairSpread: number | undefined
  if (pairRatios.length >= 2) {
    const between = pairMeans.reduce((sum, m) => sum + (m - change) ** 2, 0) / (pairRatios.length - 1)
    const fromBlocks = average(pairRatios.map((ratios) => withinVariance / ratios.length))
    pairSpread = Math.sqrt(Math.max(0, between - fromBlocks))
  }
  const weight = processSd > 0 ? PROCESS_SPREAD_WEIGHT : 0
  const ownDf = pairRatios.length - 1
  const pooled = weight + ownDf > 0 ? (weight * processSd ** 2 + ownDf * (pairSpread ?? 0) ** 2) / (weight + ownDf) : 0
  const processPart = Math.sqrt(pooled / pairRatios.length)
  const halfWidth = Math.hypot(blocksHalfWidth, normalQuantile(0.5 + confidence / 2) * processPart)
  return { interval: speedInterval(change, halfWidth, confidence), doubts: [], blocksHalfWidth, ...(pairSpread !== undefined && { pairSpread }) }
}

/** The blocks' log ratios by pair (block b on pair b mod `pairs`), and their spread within the pairs. */
interface BlocksByPair {
  k: number
  /** Each pair's blocks, by pair (empty for a pair that ran none). */
  byPair: number[][]
  /** The pairs that ran blocks: their blocks and their means. */
  pairRatios: number[][]
  pairMeans: number[]
  /** The blocks' variance about their own pair's mean, with k − pairs degrees of freedom. */
  withinVariance: number
  withinDf: number
}

function blocksWithinPairs(reference: readonly number[], candidate: readonly number[], blockOf: readonly number[], pairs: number): BlocksByPair | { doubts: string[] } {
  if (!(Number.isInteger(pairs) && pairs >= 1)) throw new RangeError(`compareBlocks: pairs must be an integer >= 1, got ${pairs}`)
  const blocks = blockLogRatios(reference, candidate, blockOf)
  const k = blocks.length
  if (k < MIN_INTERVAL_BLOCKS) return { doubts: [`too few blocks of rounds (${k}) for an interval of the change`] }
  const byPair = [...Array(pairs)].map(() => [] as number[])
  for (const { block, logRatio } of blocks) byPair[block % pairs]!.push(logRatio)
  const pairRatios = byPair.filter((ratios) => ratios.length > 0)
  // Within each pair: a pair's blocks share its processes, so only their spread about the pair's own mean is noise.
  const withinDf = k - pairRatios.length
  if (withinDf < 1) return { doubts: [`too few blocks of rounds (${k}) on ${pairRatios.length} pairs of processes for an interval of the change`] }
  const pairMeans = pairRatios.map(average)
  const withinVariance = pairRatios.reduce((sum, ratios, p) => sum + ratios.reduce((s, x) => s + (x - pairMeans[p]!) ** 2, 0), 0) / withinDf
  return { k, byPair, pairRatios, pairMeans, withinVariance, withinDf }
}

/**
 * The change one pair of processes (`pair` of `pairs`, as compareBlocks numbers them) reads alone: the mean of its
 * blocks' log ratios, with Student's t interval from the blocks' spread within every pair (what moves a block from
 * place to place is the case's, whichever processes run it; what the pair's processes differ by is in its mean, and
 * not added). A pair of two blocks or fewer gives no interval.
 */
export function onePairChange(
  reference: readonly number[],
  candidate: readonly number[],
  blockOf: readonly number[],
  pairs: number,
  pair: number,
  confidence = 0.95,
): ChangeEstimate {
  checkConfidence(confidence)
  const within = blocksWithinPairs(reference, candidate, blockOf, pairs)
  if ('doubts' in within) return within
  const mine = within.byPair[pair] ?? []
  if (mine.length < MIN_INTERVAL_BLOCKS) return { doubts: [`too few blocks of rounds (${mine.length}) on that pair for an interval of its change`] }
  const halfWidth = tQuantile(0.5 + confidence / 2, within.withinDf) * Math.sqrt(within.withinVariance / mine.length)
  return { interval: speedInterval(average(mine), halfWidth, confidence), doubts: [] }
}

/**
 * The spread between two processes of the same code for this kernel: `spreadAt1us` (the compare option
 * processSpread) over the square root of the base side's median round time in µs.
 */
export function processSpreadAt(spreadAt1us: number, baseRoundsMs: readonly number[]): number {
  const us = baseRoundsMs.length > 0 ? medianOfSorted(sortedCopy(baseRoundsMs)) * 1000 : 0
  return us > 0 ? spreadAt1us / Math.sqrt(us) : 0
}

/** '-3.1% [-3.6%, -2.6%]': the change and its interval. */
export function formatChangeInterval(interval: ChangeInterval): string {
  return `${formatFraction(interval.change, true)} [${formatFraction(interval.low, true)}, ${formatFraction(interval.high, true)}]`
}

/**
 * (c) The verdict on a change, against `tolerance` (a fraction of speed: 0.02 = 2%):
 * - any doubt: inconclusive, with the doubts as the reason;
 * - the whole interval beyond −tolerance (high < −tolerance): regression; beyond +tolerance (low > tolerance):
 *   improvement;
 * - the whole interval within ±tolerance: unchanged;
 * - otherwise the interval straddles a tolerance line: inconclusive, because it is too wide (half-width above the
 *   tolerance) or because the change is too close to the tolerance to tell.
 * The reason does not repeat the interval: callers show it (formatChangeInterval) with their own context.
 */
export function judgeChange(estimate: ChangeEstimate, tolerance: number): ChangeVerdict {
  if (!(tolerance >= 0 && Number.isFinite(tolerance))) throw new RangeError(`tolerance must be a finite number >= 0, got ${tolerance}`)
  const { interval, doubts } = estimate
  if (doubts.length > 0 || !interval) return { kind: 'inconclusive', reason: doubts.join('; ') || 'no interval' }
  const limit = `tolerance ${formatFraction(tolerance)}`
  if (interval.high < -tolerance) return { kind: 'regression', reason: `the whole interval is slower than the ${limit}` }
  if (interval.low > tolerance) return { kind: 'improvement', reason: `the whole interval is faster than the ${limit}` }
  if (interval.low >= -tolerance && interval.high <= tolerance) return { kind: 'unchanged', reason: `the whole interval is within the ${limit}` }
  const halfWidth = (interval.high - interval.low) / 2
  return {
    kind: 'inconclusive',
    reason:
      halfWidth > tolerance
        ? `the interval is too wide to judge (half-width ${formatFraction(halfWidth)} above the ${limit})`
        : `the interval straddles the ${limit}, so the change may or may not exceed it`,
  }
}
