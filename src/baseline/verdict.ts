/**
 * Pure verdict logic for the CI guard (docs/ci-gate.md): compare a measurement with its stored baseline by the
 * interval of the change of their medians, widened by the spread between runs, and check explicit floors from the
 * spec. No I/O, no GPU, no Vitest.
 */
import { formatFraction } from '../report/format.js'
import { changeFromLogRatio, formatChangeInterval, formatLevel, judgeChange, medianEstimate, streamDoubts, type ChangeInterval, type ChangeVerdictKind, type RunSpread } from '../shared/median-change.js'

/** What a baseline keeps of a case, and what a run shows of it: TFLOPS and median runtime, and the samples' cv (0.01 = 1%). */
export interface CaseFigures {
  tflops: number
  runtimeMs: number
  cv: number
}

/** One measured case: its figures and the kept runtime samples, ms. */
export interface Measurement extends CaseFigures {
  samplesMs: readonly number[]
}

/**
 * One recorded run of a case: its median runtime, the standard error of the median's logarithm (0.004 ≈ 0.4%), and the
 * samples behind it (0 where unknown: an entry from before runs were kept).
 */
export interface BaselineRun {
  runtimeMs: number
  medianSe: number
  n: number
  measuredAt: string
}

/**
 * A stored baseline: the latest run's figures plus the GPU model and when (ISO 8601), and the last runs recorded
 * (oldest first). Entries written before the gate kept runs have none.
 */
export interface BaselineEntry extends CaseFigures {
  gpu: string
  measuredAt: string
  runs?: BaselineRun[]
}

export interface VerdictOptions {
  /** Smallest change of speed that counts (0.05 = 5%): a regression is an interval wholly slower than it. */
  tolerance: number
  /** Confidence of the interval of the change (0.95 = 95%). */
  confidence: number
  /**
   * The spread between runs of one case (relative, 0.015 = 1.5%) assumed while the baseline holds fewer than two runs,
   * and pooled as one run's worth with a measured one; a case whose samples' cv (in this run or the baseline) is larger
   * assumes its cv instead.
   */
  runSpread: number
  /** When true, an improvement fails too (forces the baseline to be updated). */
  failOnImprovement: boolean
  /** When true, a case too noisy to judge fails instead of passing with its reason shown. */
  failOnInconclusive: boolean
}

/**
 * Between two runs of the example suite on two H100 boards a day apart (2026-11-24/25) the medians moved 0.5% at the
 * median case, 2.1% at the 90th percentile and 5.3% at the 99th: a run effect of about 1.5% each, which is the spread
 * assumed until an entry holds runs of its own. The tolerance is 1%: across two H100 boards in `cupti` timing
 * (docs/measurements.md, 2026-11-27) it raised no false alarm and caught every kernel made really 5% slower on 197 of
 * 204 cases, where 2% caught 180; the price is that an unchanged case whose interval is wider than ±1% reads
 * inconclusive, not unchanged.
 */
export const DEFAULT_VERDICT_OPTIONS: Readonly<VerdictOptions> = Object.freeze({
  tolerance: 0.01,
  confidence: 0.95,
  runSpread: 0.015,
  failOnImprovement: false,
  failOnInconclusive: false,
})

export type Verdict =
  | {
      kind: ChangeVerdictKind
      /** Absent when no interval exists (too few samples). */
      interval?: ChangeInterval
      change: number
      reason: string
      runSpread: RunSpread
      fails: boolean
      message: string
    }
  | { kind: 'no-baseline'; fails: false; message: string }
  | { kind: 'other-gpu'; baselineGpu: string; fails: false; message: string }

/** TFLOPS with one decimal from 10 up, three significant digits below (bandwidth-bound kernels run well under 1). */
export function formatTflops(x: number): string {
  if (!Number.isFinite(x)) return String(x)
  return Math.abs(x) >= 10 ? x.toFixed(1) : x.toPrecision(3)
}

/** Every option filled in and checked; a bad one throws a RangeError naming it. */
export function resolveVerdictOptions(opts: Partial<VerdictOptions> | undefined): VerdictOptions {
  const o: VerdictOptions = { ...DEFAULT_VERDICT_OPTIONS, ...opts }
  for (const key of ['tolerance', 'runSpread'] as const) {
    if (typeof o[key] !== 'number' || !Number.isFinite(o[key]) || o[key] < 0) throw new RangeError(`${key} must be a finite number >= 0, got ${String(o[key])}`)
  }
  if (typeof o.confidence !== 'number' || !(o.confidence > 0 && o.confidence < 1)) {
    throw new RangeError(`confidence must be a number between 0 and 1 (0.95 = 95%), got ${String(o.confidence)}`)
  }
  for (const key of ['failOnImprovement', 'failOnInconclusive'] as const) {
    if (typeof o[key] !== 'boolean') throw new RangeError(`${key} must be a boolean, got ${String(o[key])}`)
  }
  return o
}

function checkFigures(what: string, m: CaseFigures, positiveTflops: boolean): void {
  if (!Number.isFinite(m.tflops) || m.tflops < 0 || (positiveTflops && m.tflops === 0)) {
    throw new RangeError(`${what} tflops must be a finite number ${positiveTflops ? '> 0' : '>= 0'}, got ${m.tflops}`)
  }
  if (!Number.isFinite(m.cv) || m.cv < 0) {
    throw new RangeError(`${what} cv must be a finite number >= 0, got ${m.cv}`)
  }
}

/**
 * This run as a baseline run. A stream too short for an interval of its median records its sample cv instead: a
 * median's standard error is below the samples' cv from two samples up, so the stand-in only widens later intervals.
 */
export function baselineRun(m: Measurement, confidence: number, measuredAt: string): BaselineRun {
  const estimate = medianEstimate(m.samplesMs, confidence)
  return { runtimeMs: m.runtimeMs, medianSe: estimate?.logSe ?? m.cv, n: m.samplesMs.length, measuredAt }
}

/** An entry's runs; an entry from before runs were kept is one run whose median's uncertainty is its sample cv. */
function entryRuns(entry: BaselineEntry): BaselineRun[] {
  return entry.runs ?? [{ runtimeMs: entry.runtimeMs, medianSe: entry.cv, n: 0, measuredAt: entry.measuredAt }]
}

/**
 * The spread between runs: from K ≥ 2 runs, the variance of their log medians less what their own standard errors
 * explain, pooled with the assumed spread as one more run's worth of evidence (so that two runs that happen to agree
 * do not make the term vanish): σ² = ((K − 1)·max(0, s² − mean se²) + assumed²) / K. From fewer runs, the assumed
 * spread, marked not measured.
 */
export function runSpread(runs: readonly BaselineRun[], assumed: number): RunSpread {
  const k = runs.length
  if (k < 2) return { spread: assumed, runs: k, measured: false }
  const logs = runs.map((r) => Math.log(r.runtimeMs))
  const mean = logs.reduce((sum, x) => sum + x, 0) / k
  const variance = logs.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (k - 1)
  const within = runs.reduce((sum, r) => sum + r.medianSe ** 2, 0) / k
  return { spread: Math.sqrt(((k - 1) * Math.max(0, variance - within) + assumed ** 2) / k), runs: k, measured: true }
}

function spreadText(s: RunSpread): string {
  return s.measured
    ? `between-run spread ${formatFraction(s.spread)} from ${s.runs} runs`
    : `between-run spread ${formatFraction(s.spread)} assumed, not measured from 1 run (\`vitest bench -u\` again records more)`
}

const LEGACY_NOTE = "the baseline is from before runs were kept, so its sample CV stands for its median's uncertainty (re-record it with `vitest bench -u`)"

const LEAD: Record<ChangeVerdictKind, string> = {
  regression: 'regression',
  improvement: 'improvement',
  unchanged: 'unchanged',
  inconclusive: 'inconclusive',
}

/**
 * Compare a measurement on `gpu` with its baseline.
 *
 * - No baseline: `no-baseline` (never fails).
 * - Baseline from another GPU model: `other-gpu`, not compared (never fails).
 * - Otherwise, with m the run's median and se its log standard error (medianEstimate), b₁…b_K the baseline's run
 *   medians with theirs, and σ the spread between runs (runSpread):
 *   d = ln m − mean ln bₖ,  Var(d) = se² + σ² + (σ² + mean seₖ²) / K
 *   (this run's median error and run effect, and the error of the baseline's mean over K runs; σ assumes at least the
 *   larger sample cv of the two runs), and the change of
 *   speed exp(−d) − 1 with its interval (changeFromLogRatio) is judged by judgeChange against the tolerance; the
 *   run's own stream may make it inconclusive (too few samples, bimodal).
 *   A regression fails; an improvement with failOnImprovement; an inconclusive case with failOnInconclusive.
 *
 * Throws RangeError on non-finite or negative figures (a baseline of 0 TFLOPS cannot be compared against).
 */
export function compareToBaseline(
  measured: Measurement,
  gpu: string,
  baseline: BaselineEntry | undefined,
  opts?: Partial<VerdictOptions>,
): Verdict {
  const o = resolveVerdictOptions(opts)
  checkFigures('measured', measured, false)
  const got = `${formatTflops(measured.tflops)} TFLOPS`
  if (baseline === undefined) {
    return {
      kind: 'no-baseline',
      fails: false,
      message: `${got}: no baseline on ${gpu}, nothing to compare (update baselines to record one)`,
    }
  }
  if (baseline.gpu !== gpu) {
    return {
      kind: 'other-gpu',
      baselineGpu: baseline.gpu,
      fails: false,
      message:
        `${got} on ${gpu}: the baseline (${formatTflops(baseline.tflops)} TFLOPS) was measured on ${baseline.gpu}, ` +
        `not compared (update baselines to record one for ${gpu})`,
    }
  }
  checkFigures('baseline', baseline, true)

  const runs = entryRuns(baseline)
  // A noisy case moves more between runs than its median's error says: over four runs of the example suite on two
  // H200s (2026-11-26), cases with a sample cv of 9–29% in events timing moved 4–8% from run to run, about their cv.
  const spread = runSpread(runs, Math.max(o.runSpread, measured.cv, baseline.cv))
  const baselineLog = runs.reduce((sum, r) => sum + Math.log(r.runtimeMs), 0) / runs.length
  const baselineSe2 = runs.reduce((sum, r) => sum + r.medianSe ** 2, 0) / runs.length
  // With the spread measured from recorded runs, what makes one run's median doubtful (samples in two modes, a stream
  // too short for an interval of its median) is what those runs varied by: the spread holds it, and a short stream's
  // median error is taken as its sample cv (as baselineRun records it).
  const trustRuns = spread.measured && measured.samplesMs.length >= 3
  const currentSe = medianEstimate(measured.samplesMs, o.confidence)?.logSe ?? (trustRuns ? measured.cv : undefined)
  const logRatio = Math.log(measured.runtimeMs) - baselineLog
  const interval =
    currentSe !== undefined ? changeFromLogRatio(logRatio, currentSe ** 2 + spread.spread ** 2 + (spread.spread ** 2 + baselineSe2) / runs.length, o.confidence) : undefined
  const judged = judgeChange({ interval, doubts: trustRuns ? [] : streamDoubts('run', measured.samplesMs, o.confidence) }, o.tolerance)
  const change = Math.exp(-logRatio) - 1
  const fails =
    judged.kind === 'regression' || (judged.kind === 'improvement' && o.failOnImprovement) || (judged.kind === 'inconclusive' && o.failOnInconclusive)

  const notes = [
    `tolerance ${formatFraction(o.tolerance)}`,
    spreadText(spread),
    `${formatLevel(o.confidence)} interval`,
    `${got} vs ${formatTflops((measured.tflops * measured.runtimeMs) / Math.exp(baselineLog))} in the baseline`,
    ...(baseline.runs ? [] : [LEGACY_NOTE]),
  ].join('; ')
  let message: string
  if (judged.kind === 'regression' && interval) {
    message = `slower than baseline by ${formatFraction(-change)} [${formatFraction(-interval.high)}, ${formatFraction(-interval.low)}] (${notes})`
  } else if (judged.kind === 'improvement' && interval) {
    message = `faster than baseline by ${formatFraction(change)} [${formatFraction(interval.low)}, ${formatFraction(interval.high)}] (${notes})`
    if (o.failOnImprovement) message += '; fails because failOnImprovement is set (update the baseline)'
  } else {
    message = `${interval ? formatChangeInterval(interval) : `${formatFraction(change, true)} with no interval`}: ${judged.reason} (${notes})`
    if (fails) message += '; fails because failOnInconclusive is set'
  }
  return { kind: judged.kind, ...(interval && { interval }), change, reason: judged.reason, runSpread: spread, fails, message: `${LEAD[judged.kind]}: ${message}` }
}

/** Explicit floors from the spec. GFLOPS = TFLOPS × 1000; solPercent is % of the roofline (speed of light). */
export interface Floors {
  minTflops?: number
  minGflops?: number
  maxRuntimeMs?: number
  minSolPercent?: number
}

/**
 * One message per violated floor; empty when all hold. A value equal to its floor passes; a non-finite measured
 * value (NaN) violates any floor set on it.
 *
 * `minSolPercent` is skipped, with no message, when `solPercent` is undefined (no roofline known for this GPU):
 * floors are absolute CI gates and an unknown peak is not evidence of a slow kernel. Callers that want to flag it
 * should do so themselves.
 */
export function checkFloors(m: { tflops: number; runtimeMs: number; solPercent?: number }, floors: Floors): string[] {
  const out: string[] = []
  if (floors.minTflops !== undefined && !(m.tflops >= floors.minTflops)) {
    out.push(`${formatTflops(m.tflops)} TFLOPS is below the floor minTflops ${floors.minTflops}`)
  }
  if (floors.minGflops !== undefined && !(m.tflops * 1000 >= floors.minGflops)) {
    out.push(`${formatTflops(m.tflops * 1000)} GFLOPS is below the floor minGflops ${floors.minGflops}`)
  }
  if (floors.maxRuntimeMs !== undefined && !(m.runtimeMs <= floors.maxRuntimeMs)) {
    out.push(`runtime ${m.runtimeMs.toPrecision(4)} ms is above the ceiling maxRuntimeMs ${floors.maxRuntimeMs}`)
  }
  if (floors.minSolPercent !== undefined && m.solPercent !== undefined && !(m.solPercent >= floors.minSolPercent)) {
    out.push(`${m.solPercent.toFixed(1)}% of speed of light is below the floor minSolPercent ${floors.minSolPercent}`)
  }
  return out
}
