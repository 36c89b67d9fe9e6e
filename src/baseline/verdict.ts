/**
 * Pure verdict logic for the CI guard (docs/ci-gate.md): compare a measurement with its stored baseline by the
 * interval of the change of their medians, widened by the spread between runs, and check explicit floors from the
 * spec. No I/O, no GPU, no Vitest.
 */
import { formatFraction } from '../report/format.js'
import {
  bimodalSplit,
  changeFromLogRatio,
  formatChangeInterval,
  formatLevel,
  judgeChange,
  medianEstimate,
  streamDoubts,
  type BoardSpread,
  type ChangeInterval,
  type ChangeVerdictKind,
  type RunSpread,
} from '../shared/median-change.js'

/** What a baseline keeps of a case, and what a run shows of it: TFLOPS and median runtime, and the samples' cv (0.01 = 1%). */
export interface CaseFigures {
  tflops: number
  runtimeMs: number
  cv: number
}

/**
 * One measured case: its figures, the kept runtime samples (ms), the board that ran it (its UUID), the share of its
 * time that was the host's (TimingResult.hostShare), and its board's probe time (GpuRef.boardProbeMs), where known.
 */
export interface Measurement extends CaseFigures {
  samplesMs: readonly number[]
  board?: string
  hostShare?: number
  boardProbeMs?: number
}

/**
 * One recorded run of a case: its median runtime, the standard error of the median's logarithm (0.004 ≈ 0.4%), the
 * samples behind it (0 where unknown: an entry from before runs were kept), the board that ran it (absent in runs
 * recorded before boards were kept), the share of its time that was the host's (absent where its timing could not
 * tell, or before it was kept), and the board's probe time (absent before it was kept).
 */
export interface BaselineRun {
  runtimeMs: number
  medianSe: number
  n: number
  measuredAt: string
  board?: string
  hostShare?: number
  boardProbeMs?: number
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
   * The spread between runs of one case (relative, 0.01 = 1%) assumed while the baseline holds fewer than two runs,
   * and pooled as two runs' worth with a measured one; a case whose samples' cv (in this run or the baseline) is
   * larger assumes its cv instead.
   */
  runSpread: number
  /**
   * The spread between boards of the GPU model (relative) assumed, pooled as one board's worth with the spread measured
   * between the recorded boards: how far a board's speed may lie from the other boards' where runs of several boards
   * judge it.
   */
  boardSpread: number
  /** When true, an improvement fails too (forces the baseline to be updated). */
  failOnImprovement: boolean
  /** When true, a case too noisy to judge fails instead of passing with its reason shown. */
  failOnInconclusive: boolean
}

/**
 * The smallest share of a run's samples in its smaller mode for the median to be in doubt between the modes. A mode
 * with over two thirds of the samples holds the median in run after run (on six H200 boards, 2026-11-29, a fifth of
 * the cases' streams split in two modes by where their buffers sat, most of them about 70/30 or 80/20 in every run);
 * nearer half and half, a run whose places fall otherwise puts it in the other mode.
 */
const MEDIAN_MODE_DOUBT = 1 / 3

/**
 * The assumed spreads were chosen on runs of the example suite in `cupti` timing on seven H200 boards, two unchanged
 * runs on each and one or two with every kernel made really 5% slower on six (2026-11-28/29, docs/measurements.md),
 * replayed with each board recorded alone (one run or two), two boards together, and all others. Between two runs of
 * one board a case's median moved 0.24% at the median case and at most 1.6% where its cv was under 1%; between boards
 * some kernels sat up to 3.4% apart in every run (a naive sgemm). With 1% between runs and 1% between boards (and
 * ASSUMED_RUNS, the floor in boardSpread) no replay raised a false alarm. The spreads before 2026-11-29 (1.5% and
 * 0.75%, one run's worth, no floor) raised 100, and one recorded run caught the 5% slowdown on 31–48 of the 204
 * planted cases of its board, where these catch 123–129.
 * The tolerance is 1%: across two H100 boards in `cupti` timing (docs/measurements.md, 2026-11-27) it raised no false
 * alarm and caught every kernel made really 5% slower on 197 of 204 cases, where 2% caught 180; the price is that an
 * unchanged case whose interval is wider than ±1% reads inconclusive, not unchanged.
 */
export const DEFAULT_VERDICT_OPTIONS: Readonly<VerdictOptions> = Object.freeze({
  tolerance: 0.01,
  confidence: 0.95,
  runSpread: 0.01,
  boardSpread: 0.01,
  failOnImprovement: false,
  failOnInconclusive: false,
})

export type Verdict =
  | {
      kind: ChangeVerdictKind
      interval: ChangeInterval
      change: number
      reason: string
      runSpread: RunSpread
      /** Present where other boards' runs entered the comparison. */
      boardSpread?: BoardSpread
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
  for (const key of ['tolerance', 'runSpread', 'boardSpread'] as const) {
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
  return {
    runtimeMs: m.runtimeMs,
    medianSe: estimate?.logSe ?? m.cv,
    n: m.samplesMs.length,
    measuredAt,
    ...(m.board !== undefined && { board: m.board }),
    ...(m.hostShare !== undefined && { hostShare: m.hostShare }),
    ...(m.boardProbeMs !== undefined && { boardProbeMs: m.boardProbeMs }),
  }
}

/** An entry's runs; an entry from before runs were kept is one run whose median's uncertainty is its sample cv. */
function entryRuns(entry: BaselineEntry): BaselineRun[] {
  return entry.runs ?? [{ runtimeMs: entry.runtimeMs, medianSe: entry.cv, n: 0, measuredAt: entry.measuredAt }]
}

const meanOf = (xs: readonly number[]) => xs.reduce((sum, x) => sum + x, 0) / xs.length
const meanLog = (runs: readonly BaselineRun[]) => meanOf(runs.map((r) => Math.log(r.runtimeMs)))
const meanSe2 = (runs: readonly BaselineRun[]) => meanOf(runs.map((r) => r.medianSe ** 2))
/** The variance of a board's mean log median: each run's effect (the spread between runs) and its own error, over its runs. */
const boardMeanError = (board: readonly BaselineRun[], run: RunSpread) => (run.spread ** 2 + meanSe2(board)) / board.length

/** Runs grouped by the board that ran them, in the order the boards were first recorded; runs that name no board are one group. */
function byBoard(runs: readonly BaselineRun[]): BaselineRun[][] {
  const groups = new Map<string | undefined, BaselineRun[]>()
  for (const r of runs) groups.set(r.board, [...(groups.get(r.board) ?? []), r])
  return [...groups.values()]
}

/**
 * How many runs' worth of evidence the assumed spread between runs counts as, pooled with a measured one. Runs that
 * happen to agree must not make the term vanish: on seven H200 boards (2026-11-29) a noisy gemv (cv 3%) read 11.68 and
 * 11.81 µs on two boards' two runs each and 12.42 µs on a third board's run, which at one run's worth read as a 5%
 * regression; at two, no case of the suite was a false alarm with any two boards recorded and a third checked.
 */
const ASSUMED_RUNS = 2

/**
 * The spread between runs on one board: the variance of the runs' log medians about their board's mean (over the
 * K − B degrees of freedom of K runs on B boards), less what their own standard errors explain, pooled with the
 * assumed spread as ASSUMED_RUNS more runs' worth of evidence: σ² = ((K − B)·max(0, s² − mean se²) + 2·assumed²) /
 * (K − B + 2). Where no board has two runs, the assumed spread, marked not measured.
 */
export function runSpread(boards: readonly (readonly BaselineRun[])[], assumed: number): RunSpread {
  const runs = boards.flat()
  const freedom = runs.length - boards.length
  if (freedom < 1) return { spread: assumed, runs: runs.length, measured: false }
  const squares = boards.reduce((sum, board) => {
    const mean = meanLog(board)
    return sum + board.reduce((s, r) => s + (Math.log(r.runtimeMs) - mean) ** 2, 0)
  }, 0)
  const excess = Math.max(0, squares / freedom - meanSe2(runs))
  return { spread: Math.sqrt((freedom * excess + ASSUMED_RUNS * assumed ** 2) / (freedom + ASSUMED_RUNS)), runs: runs.length, measured: true }
}

/**
 * The spread between boards: the variance of the boards' mean log medians, less what the spread between runs and the
 * runs' own errors explain of it, pooled with the assumed spread as one more board's worth:
 * τ² = ((B − 1)·max(0, s_b² − mean_b (σ² + mean se²) / K_b) + assumed²) / B, and never less than the assumed spread.
 * From one board, the assumed spread. The floor, because boards come in kinds: of seven H200 boards (2026-11-29), three
 * ran a naive sgemm at 45.6 ms and four at 47.1 ms, so two recorded boards that agree say little of a third, and
 * without it a third board of the other kind read as a 3% change (97 false alarms over every pair of boards recorded).
 */
export function boardSpread(boards: readonly (readonly BaselineRun[])[], run: RunSpread, assumed: number): BoardSpread {
  const count = boards.length
  if (count < 2) return { spread: assumed, boards: count, measured: false }
  const means = boards.map(meanLog)
  const grand = meanOf(means)
  const variance = means.reduce((sum, m) => sum + (m - grand) ** 2, 0) / (count - 1)
  const explained = meanOf(boards.map((board) => boardMeanError(board, run)))
  return { spread: Math.max(assumed, Math.sqrt(((count - 1) * Math.max(0, variance - explained) + assumed ** 2) / count)), boards: count, measured: true }
}

/**
 * What a run is compared with: a log median for its board's speed, how far that may lie from the board's true speed
 * (`variance`), the spread between runs (pooled over every board's runs), and, where other boards' runs entered it,
 * the spread between boards with the weight of the run's own board's runs.
 */
interface Reference {
  logMean: number
  variance: number
  run: RunSpread
  board?: { spread: BoardSpread; ownWeight: number }
}

/**
 * A board's speed estimated from its own runs and the other boards' (a random-effects estimate): the other boards' mean
 * stands for it within the spread between boards, its own runs' mean within their error, and the two are weighed by
 * the inverse of those variances. A board with no recorded run takes the other boards' mean, with the spread between
 * boards; a board whose runs are the only ones, its own mean. So two boards that agree narrow each other's interval,
 * and a board that stands apart is judged by its own runs. The spread between runs is measured from `spreadFrom`, a
 * superset of `runs`: how far a case's median moves from run to run on one board is the case's, whatever the board's
 * kind, so the runs of boards left out of `runs` for their kind still measure it; and from `judgedRuns`, the runs
 * judged together.
 */
function reference(
  runs: readonly BaselineRun[],
  board: string | undefined,
  assumed: { run: number; board: number },
  spreadFrom: readonly BaselineRun[],
  judgedRuns: readonly BaselineRun[],
): Reference {
  const boards = byBoard(runs)
  // The runs judged together measure the spread too, about their own mean (a change moves them all alike): a group of
  // their own, never pooled with their board's recorded runs. One run adds nothing to measure it with.
  const run = runSpread(judgedRuns.length > 1 ? [...byBoard(spreadFrom), judgedRuns] : byBoard(spreadFrom), assumed.run)
  const between = boardSpread(boards, run, assumed.board)
  const errorOf = (b: readonly BaselineRun[]) => boardMeanError(b, run)
  const own = boards.find((b) => b[0]!.board === board)
  const others = boards.filter((b) => b !== own)
  if (others.length === 0) return { logMean: meanLog(own!), variance: errorOf(own!), run }
  const othersMean = meanOf(others.map(meanLog))
  // How far this board's speed may lie from the other boards' mean: the spread between boards, and that mean's error.
  const prior = between.spread ** 2 + (between.spread ** 2 + meanOf(others.map(errorOf))) / others.length
  if (own === undefined) return { logMean: othersMean, variance: prior, run, board: { spread: between, ownWeight: 0 } }
  const ownWeight = prior / (prior + errorOf(own))
  return {
    logMean: ownWeight * meanLog(own) + (1 - ownWeight) * othersMean,
    variance: (1 - ownWeight) ** 2 * prior + ownWeight ** 2 * errorOf(own),
    run,
    board: { spread: between, ownWeight },
  }
}

/**
 * How far apart the host's part of a case's time (its copies to or from the host or another GPU, and in `events`
 * timing the GPU's waits for the host inside a call) may lie between two boards' hosts, as a spread of that part
 * (relative). On H200s (2026-11-28/29) the reductions that copy their tensor's shape to the host in every call ran
 * 3–17% slower on a 2-GPU host than on the 1-GPU hosts, their copy taking 1.5–1.9 times as long, where no kernel's
 * time moved with the host.
 */
const HOST_TIME_SPREAD = 0.5

/**
 * How far apart two boards' probe times (GpuRef.boardProbeMs) may lie for the boards to be taken as of one kind. On
 * H200s (2026-11-28/29) boards came in two kinds: the probe took 5.83–5.88 ms on one and 6.03–6.06 ms on the other, a
 * naive sgemm at 4096³ 45.4–45.6 against 46.9–47.2 ms, each board within 0.3% from run to run. Kernels that read far
 * beyond the L2 ran up to 4.8% apart between the kinds; within one, a case whose cv was under 1% sat at most 1.6% apart
 * over seven boards (but for a run split in two modes, which the verdict widens for).
 */
export const SAME_KIND_PROBES = 0.0125

/**
 * The least spread between boards, as a share of the assumed one, where the recorded boards of this board's kind judge
 * it: on fourteen H200 boards replayed every way of recording (2026-11-29), half of the assumed 1% raised no false alarm.
 */
const SAME_KIND_SHARE = 0.5

/**
 * The least spread between boards, as a share of how far their probes lie apart, where no recorded board is of this
 * board's kind: an online softmax moved 4.8% between the kinds where the probe moved 3.2%, which a spread of half the
 * probes' distance holds (with the spread counted for both boards) and the assumed 1% did not.
 */
const OTHER_KIND_SHARE = 0.5

/** Why the least spread between boards is not the assumed one, for the message. */
type LeastSpreadCause = { hostShare: number } | { probesApart: number; sameKind: boolean; otherKinds: number }

/** The recorded runs a run is judged by, and the least spread between boards that their kinds allow. */
interface KindsJudged {
  runs: readonly BaselineRun[]
  spread: number
  cause?: LeastSpreadCause
}

/**
 * Where this run and every other board's recorded run kept a probe: a board with recorded boards of its kind is judged
 * by them (and its own runs) alone, with SAME_KIND_SHARE of the assumed spread between boards at least; one without is
 * judged by all, with OTHER_KIND_SHARE of how far the probes lie apart at least. Otherwise every run, as assumed. (The
 * spread between runs is measured from every recorded run either way: see reference.)
 */
function judgeByKind(measured: Measurement, runs: readonly BaselineRun[], assumed: number): KindsJudged {
  const probe = measured.boardProbeMs
  const isOther = (r: BaselineRun) => r.board === undefined || r.board !== measured.board
  const others = runs.filter(isOther)
  if (probe === undefined || others.length === 0 || others.some((r) => r.boardProbeMs === undefined)) return { runs, spread: assumed }
  const apart = (r: BaselineRun) => Math.abs(Math.log(r.boardProbeMs! / probe))
  const ofItsKind = (r: BaselineRun) => apart(r) <= SAME_KIND_PROBES
  const sameKind = others.filter(ofItsKind)
  const otherKinds = new Set(others.filter((r) => !ofItsKind(r)).map((r) => r.board)).size
  if (sameKind.length > 0) {
    return {
      runs: runs.filter((r) => !isOther(r) || ofItsKind(r)),
      spread: SAME_KIND_SHARE * assumed,
      cause: { probesApart: Math.max(...sameKind.map(apart)), sameKind: true, otherKinds },
    }
  }
  const farthest = Math.max(...others.map(apart))
  return OTHER_KIND_SHARE * farthest > assumed
    ? { runs, spread: OTHER_KIND_SHARE * farthest, cause: { probesApart: farthest, sameKind: false, otherKinds } }
    : { runs, spread: assumed }
}

/**
 * The runs a case is judged by and the least spread between boards: by the boards' kinds (judgeByKind), and, for a
 * case whose time is partly the host's (in this run or a recorded one), at least HOST_TIME_SPREAD of that share.
 */
function leastBoardSpread(measured: Measurement, runs: readonly BaselineRun[], assumed: number): KindsJudged {
  const byKind = judgeByKind(measured, runs, assumed)
  const hostShare = Math.max(measured.hostShare ?? 0, ...byKind.runs.map((r) => r.hostShare ?? 0))
  const forHost = HOST_TIME_SPREAD * hostShare
  return forHost > byKind.spread ? { ...byKind, spread: forHost, cause: { hostShare } } : byKind
}

function causeText(cause: LeastSpreadCause): string {
  if ('hostShare' in cause) return `${formatFraction(cause.hostShare)} of its time is the host's`
  if (!cause.sameKind) return `no recorded board of its kind, their board probes ${formatFraction(cause.probesApart)} apart`
  const left = cause.otherKinds === 0 ? '' : `; ${cause.otherKinds} board${cause.otherKinds === 1 ? '' : 's'} of another kind left out`
  return `boards of its kind, their board probes within ${formatFraction(cause.probesApart)}${left}`
}

function spreadText(s: RunSpread): string {
  return s.measured
    ? `between-run spread ${formatFraction(s.spread)} from ${s.runs} runs`
    : `between-run spread ${formatFraction(s.spread)} assumed, not measured from ${s.runs} run${s.runs === 1 ? '' : 's'} (\`vitest bench -u\` again records more)`
}

function boardText({ spread, ownWeight }: NonNullable<Reference['board']>, least: KindsJudged): string {
  const floor = least.cause === undefined ? '' : ` (at least ${formatFraction(least.spread)}: ${causeText(least.cause)})`
  const between = `between-board spread ${formatFraction(spread.spread)} ${spread.measured ? `from ${spread.boards} boards` : 'assumed'}${floor}`
  return ownWeight === 0
    ? `${between}, as no run of this board was recorded (\`vitest bench -u\` on it records one)`
    : `${between}: this board's runs weigh ${Math.round(100 * ownWeight)}% against the other boards'`
}

const LEGACY_NOTE = "the baseline is from before runs were kept, so its sample CV stands for its median's uncertainty (re-record it with `vitest bench -u`)"

const LEAD: Record<ChangeVerdictKind, string> = {
  regression: 'regression',
  improvement: 'improvement',
  unchanged: 'unchanged',
  inconclusive: 'inconclusive',
}

/**
 * Compare a measurement on `gpu` with its baseline: compareRunsToBaseline with this run alone.
 */
export function compareToBaseline(
  measured: Measurement,
  gpu: string,
  baseline: BaselineEntry | undefined,
  opts?: Partial<VerdictOptions>,
): Verdict {
  return compareRunsToBaseline([measured], gpu, baseline, opts)
}

/**
 * Compare one or more runs of a case on one board of `gpu` with its baseline, judged together.
 *
 * - No baseline: `no-baseline` (never fails).
 * - Baseline from another GPU model: `other-gpu`, not compared (never fails).
 * - Otherwise, with k runs, mᵢ their medians and seᵢ their log standard errors (medianEstimate), σ the spread between
 *   runs on one board (runSpread, over every board's recorded runs and the k runs about their own mean; it assumes at
 *   least the largest sample cv of the runs), and r the board's expected log median with its error V (reference: its
 *   own recorded runs weighed against the other boards' within the spread between boards),
 *   d = mean ln mᵢ − r,  Var(d) = (mean seᵢ² + σ²) / k + V
 *   (the runs' median errors and run effects, each run its own, and r's error). Then the change of speed exp(−d) − 1
 *   with its interval (changeFromLogRatio) is judged by judgeChange against the tolerance; the runs' own streams may
 *   make it inconclusive (too few samples, bimodal).
 *   A regression fails; an improvement with failOnImprovement; an inconclusive case with failOnInconclusive.
 *
 * Throws RangeError on non-finite or negative figures (a baseline of 0 TFLOPS cannot be compared against), on no run,
 * and on runs of several boards (each board's speed is its own: judge each board's runs apart).
 */
export function compareRunsToBaseline(
  checked: readonly Measurement[],
  gpu: string,
  baseline: BaselineEntry | undefined,
  opts?: Partial<VerdictOptions>,
): Verdict {
  const o = resolveVerdictOptions(opts)
  const first = checked[0]
  if (first === undefined) throw new RangeError('no run to judge')
  if (checked.some((m) => m.board !== first.board)) throw new RangeError('runs judged together must come from one board')
  const together = checked.length > 1
  checked.forEach((m, i) => checkFigures(together ? `measured run ${i + 1}` : 'measured', m, false))
  const logMeasured = meanOf(checked.map((m) => Math.log(m.runtimeMs)))
  const tflopsMeasured = (first.tflops * first.runtimeMs) / Math.exp(logMeasured)
  const got = `${formatTflops(tflopsMeasured)} TFLOPS`
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

  // A noisy case moves more between runs than its median's error says: over four runs of the example suite on two
  // H200s (2026-11-26), cases with a sample cv of 9–29% in events timing moved 4–8% from run to run; on H200s in
  // `cupti` timing (2026-11-28/29) cases with a cv over 2% moved up to 1.26 times their cv between two runs of a board.
  const assumedRunSpread = Math.max(o.runSpread, baseline.cv, ...checked.map((m) => m.cv))
  const recorded = entryRuns(baseline)
  const hostShares = checked.flatMap((m) => (m.hostShare === undefined ? [] : [m.hostShare]))
  const judgedAs: Measurement = { ...first, ...(hostShares.length > 0 && { hostShare: Math.max(...hostShares) }) }
  const leastBoard = leastBoardSpread(judgedAs, recorded, o.boardSpread)
  // Only several runs measure the spread between runs among themselves; one run's medianEstimate is streamError's.
  const judgedRuns = together ? checked.map((m) => baselineRun(m, o.confidence, 'judged')) : []
  const against = reference(leastBoard.runs, first.board, { run: assumedRunSpread, board: leastBoard.spread }, recorded, judgedRuns)
  const spread = against.run
  const baselineLog = against.logMean
  const streams = checked.map((m) => streamError(m.samplesMs, m.cv, assumedRunSpread, spread, o.confidence))
  const logRatio = logMeasured - baselineLog
  const runsVariance = (meanOf(streams.map((s) => s.variance)) + spread.spread ** 2) / checked.length
  const interval = changeFromLogRatio(logRatio, runsVariance + against.variance, o.confidence)
  const judgedAlone = judgeChange({ interval, doubts: [] }, o.tolerance)
  // An inconclusive verdict says what widened it.
  const doubts = checked.flatMap((m, i) =>
    streams[i]!.doubted ? streamDoubts(together ? `run ${i + 1}` : 'run', m.samplesMs, o.confidence) : [],
  )
  const judged = judgedAlone.kind === 'inconclusive' && doubts.length > 0 ? { ...judgedAlone, reason: `${judgedAlone.reason}; ${doubts.join('; ')}` } : judgedAlone
  const change = Math.exp(-logRatio) - 1
  const fails =
    judged.kind === 'regression' || (judged.kind === 'improvement' && o.failOnImprovement) || (judged.kind === 'inconclusive' && o.failOnInconclusive)

  const short = streams.filter((s) => s.short)
  const notes = [
    ...(together ? [`${checked.length} runs of this board judged together`] : []),
    `tolerance ${formatFraction(o.tolerance)}`,
    spreadText(spread),
    ...(against.board ? [boardText(against.board, leastBoard)] : []),
    `${formatLevel(o.confidence)} interval`,
    ...new Set(short.map((s) => s.short!)),
    `${got} vs ${formatTflops((tflopsMeasured * Math.exp(logMeasured)) / Math.exp(baselineLog))} in the baseline`,
    ...(baseline.runs ? [] : [LEGACY_NOTE]),
  ].join('; ')
  let message: string
  if (judged.kind === 'regression') {
    message = `slower than baseline by ${formatFraction(-change)} [${formatFraction(-interval.high)}, ${formatFraction(-interval.low)}] (${notes})`
  } else if (judged.kind === 'improvement') {
    message = `faster than baseline by ${formatFraction(change)} [${formatFraction(interval.low)}, ${formatFraction(interval.high)}] (${notes})`
    if (o.failOnImprovement) message += '; fails because failOnImprovement is set (update the baseline)'
  } else {
    message = `${formatChangeInterval(interval)}: ${judged.reason} (${notes})`
    if (fails) message += '; fails because failOnInconclusive is set'
  }
  return {
    kind: judged.kind,
    interval,
    change,
    reason: judged.reason,
    runSpread: spread,
    ...(against.board && { boardSpread: against.board.spread }),
    fails,
    message: `${LEAD[judged.kind]}: ${message}`,
  }
}

/** What one run's stream adds to the variance of its log median, whether it is in doubt, and the note for a short one. */
interface StreamError {
  variance: number
  doubted: boolean
  short?: string
}

/**
 * A stream too short for an interval of its median (3 to 5 samples: a long kernel) takes its sample cv as its median's
 * error, as baselineRun records it: larger than the median's true error from two samples up; one or two samples (a
 * kernel of seconds against the time limit) take the assumed spread between runs, which is at least the cv the case
 * was recorded with. Samples in two modes, the smaller with a third of them or more (MEDIAN_MODE_DOUBT), widen the
 * interval by half the gap between the modes, as the median may land in either, less what a spread measured from
 * recorded runs already holds: runs that landed in either mode measured it, but a run split 10% apart where the
 * recorded runs moved 1.5% (seen on an H200, 2026-11-29) would otherwise read the gap as a change. Either way a change
 * far beyond the doubt is still judged: a kernel five times slower fails.
 */
function streamError(samples: readonly number[], cv: number, assumedRunSpread: number, spread: RunSpread, confidence: number): StreamError {
  const estimate = medianEstimate(samples, confidence)
  const se = estimate?.logSe ?? (samples.length >= 3 ? cv : assumedRunSpread)
  const split = bimodalSplit(samples)
  const modes = split && Math.min(split.lowerShare, 1 - split.lowerShare) >= MEDIAN_MODE_DOUBT ? split : undefined
  const modesTerm = modes ? Math.max(0, (Math.log(modes.upperMean / modes.lowerMean) / 2) ** 2 - (spread.measured ? spread.spread ** 2 : 0)) : 0
  const short =
    estimate !== undefined
      ? undefined
      : samples.length >= 3
        ? `the run's sample CV stands for its median's error (${samples.length} samples)`
        : `the assumed between-run spread stands for its median's error (${samples.length} sample${samples.length === 1 ? '' : 's'})`
  return { variance: se ** 2 + modesTerm, doubted: modesTerm > 0 || estimate === undefined, ...(short !== undefined && { short }) }
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
