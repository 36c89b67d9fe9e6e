// What a paired A/B case's rounds say of the change (docs/ci-gate.md, "Paired A/B"): the estimate of its undisturbed
// blocks (of every block where too many were disturbed), widened by what the processes differ by, and the judgement on
// it. The verdict (src/baseline/paired-verdict.ts) and the engine (src/engine/worker/paired-case.ts: its stopping rule,
// and whether a change must be confirmed on fresh processes) read this one estimate, so a case runs on the verdict it
// is given. The lower of two levels of round times (lowerLevelChange) does not stop a case: such a case runs to its time
// limit.
import { disturbedReason, roundsToJudge, tooDisturbed, type DisturbedRounds } from './disturbed-rounds.js'
import { formatFraction } from './fraction.js'
import {
  bimodalSplit,
  changeFromLogRatio,
  compareBlocks,
  onePairChange,
  formatChangeInterval,
  formatLevel,
  isChange,
  judgeChange,
  medianEstimate,
  normalQuantile,
  processSpreadAt,
  type BlocksEstimate,
  type ChangeEstimate,
  type ChangeInterval,
  type ChangeVerdict,
} from './median-change.js'

/** Each round's median on each side, its block, and the pairs of processes the blocks rotated over (one where absent). */
export interface RoundsOfPairs {
  base: readonly number[]
  head: readonly number[]
  block: readonly number[]
  pairs?: number
  /**
   * The pair opened on fresh processes once the others read a change (blocks b with b mod pairs = freshPair); absent
   * where none was.
   */
  freshPair?: number
}

export interface PairedEstimate {
  /** The blocks a disturbance touched and those it did not. */
  split: DisturbedRounds
  /** The rounds the estimate reads: the undisturbed blocks', or every block's where too many were disturbed. */
  judgedRounds: DisturbedRounds['clean']
  /** What two processes differ by for this kernel (a standard deviation of the log ratio). */
  processSd: number
  estimate: BlocksEstimate
}

/**
 * The change read off `rounds` (each round's median on each side, its block, and the pairs of processes the blocks
 * rotated over: one where absent), at `confidence`, with `processSpread` (the compare option, for a 1 µs kernel).
 */
export function pairedEstimate(rounds: RoundsOfPairs, confidence: number, processSpread: number): PairedEstimate {
  const { split, judged: judgedRounds } = roundsToJudge(rounds)
  const processSd = processSpreadAt(processSpread, rounds.base)
  const { base, head, block } = judgedRounds
  return { split, judgedRounds, processSd, estimate: compareBlocks(base, head, block, confidence, processSd, rounds.pairs ?? 1) }
}

/**
 * Two levels of round times at least this far apart (upper over lower, less 1) are a kernel that reads one or the
 * other from call to call, not the few percent a place moves a kernel by: on H100s (2026-11-27 and 28) the 2^29- and
 * 2^30-element adds read 2.09 or 2.40 ms and 4.19 or 4.77 ms (14–15% apart) at random on either side, while the other
 * cases whose rounds split did so by 1–5%.
 */
export const LEVEL_GAP = 0.1

/** The change at the lower of two levels of round times (lowerLevelChange). */
export interface LowerLevel {
  /** The change of the two sides' medians of their rounds below the cut, process spread included. */
  estimate: ChangeEstimate
  /** Each side's share of rounds at the upper level. */
  upperShare: { base: number; head: number }
  /** Whether the two shares differ beyond chance at the confidence (a two-proportion z test). */
  sharesDiffer: boolean
  /** The two levels (ms), from both sides' rounds together. */
  levels: { lower: number; upper: number }
}

/**
 * Where both sides' rounds together fall into two levels at least LEVEL_GAP apart, the change of the lower level: the
 * median of each side's rounds below the midpoint between the levels, with the order-statistic interval of two
 * streams (compareStreams' rule) widened by what the processes differ by. A round's median at such a kernel is a draw
 * of which level its calls fell on, so the blocks' ratios spread by the whole gap and no interval of theirs reaches a
 * 1% tolerance; the lower level is the kernel's own time, and the share of rounds at the upper level is shown beside
 * it. The lower level does not see how often each side was at the upper level, which moves the whole time too:
 * `sharesDiffer` says whether the two sides' shares differ beyond chance. Undefined where the rounds do not fall into
 * two such levels. `given`: the two levels found in more rounds (a fresh pair's few rounds are read at the case's).
 */
export function lowerLevelChange(
  rounds: { base: readonly number[]; head: readonly number[] },
  confidence: number,
  processSd: number,
  given?: LowerLevel['levels'],
): LowerLevel | undefined {
  const modes = given ? { lowerMean: given.lower, upperMean: given.upper } : bimodalSplit([...rounds.base, ...rounds.head])
  if (!modes || modes.upperMean / modes.lowerMean - 1 < LEVEL_GAP) return undefined
  const cut = (modes.lowerMean + modes.upperMean) / 2
  const below = (times: readonly number[]) => times.filter((ms) => ms < cut)
  const lower = { base: below(rounds.base), head: below(rounds.head) }
  const upperShare = { base: 1 - lower.base.length / rounds.base.length, head: 1 - lower.head.length / rounds.head.length }
  const levels = { lower: modes.lowerMean, upper: modes.upperMean }
  const sharesDiffer = sharesDifferBeyondChance(rounds.base.length - lower.base.length, rounds.base.length, rounds.head.length - lower.head.length, rounds.head.length, confidence)
  const base = medianEstimate(lower.base, confidence)
  const head = medianEstimate(lower.head, confidence)
  if (!base || !head) {
    const doubt = `too few rounds at the lower level (base ${lower.base.length}, head ${lower.head.length}) for a ${formatLevel(confidence)} interval`
    return { estimate: { doubts: [doubt] }, upperShare, sharesDiffer, levels }
  }
  const interval = changeFromLogRatio(Math.log(head.median / base.median), base.logSe ** 2 + head.logSe ** 2 + processSd ** 2, confidence)
  return { estimate: { interval, doubts: [] }, upperShare, sharesDiffer, levels }
}

/** Whether a of n and b of m differ beyond chance at `confidence`: the two-proportion z test with the pooled share. */
function sharesDifferBeyondChance(a: number, n: number, b: number, m: number, confidence: number): boolean {
  const pooled = (a + b) / (n + m)
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / n + 1 / m))
  return se > 0 && Math.abs(a / n - b / m) / se > normalQuantile(0.5 + confidence / 2)
}

/** What the verdict is judged with: the compare options. */
export interface JudgementSettings {
  tolerance: number
  confidence: number
  processSpread: number
}

/** The judgement on a paired case's rounds (judgePairedRounds). */
export interface PairedJudgement extends PairedEstimate {
  judged: ChangeVerdict
  /** The interval the verdict shows: the lower level's where it gave the regression, else the blocks'. */
  interval?: ChangeInterval
  /** Where the kernel's rounds fall on two levels and its blocks could not judge it: the lower level's change. */
  level?: LowerLevel
  /** Whether the lower level gave the regression. */
  regressionAtLevel: boolean
  /** What the fresh pair's blocks alone read, where the pairs before it read a change (the reading that confirmed it). */
  fresh?: ChangeEstimate
}

/** A kernel's two levels of round times, and how often each side's rounds were at the upper one. */
function levelsNote(level: LowerLevel): string {
  const ms = (x: number) => `${x.toPrecision(4)} ms`
  const share = (x: number) => `${Math.round(x * 100)}%`
  return (
    `its rounds fall on two levels, ${ms(level.levels.lower)} and ${ms(level.levels.upper)} (upper: base ${share(level.upperShare.base)}, ` +
    `head ${share(level.upperShare.head)} of rounds)`
  )
}

/**
 * What the fresh pair's judged blocks (judgedRounds) read alone, without the process spread: whether it points the same
 * way as the other pairs' change is the question, not its size. Where the lower of two levels gave the change, its
 * rounds' change at that level. Otherwise two readings of the mean of its blocks' log ratios: with their own spread
 * (compareBlocks on one pair), and with the blocks' spread within every pair (onePairChange). Either clear of zero
 * confirms: a fresh pair runs three or four blocks, too few to judge their own spread well. On H100s (2026-11-28), a
 * 36 µs conv-1d made 5% slower read -5.3%, -13.6%, -4.6% and -5.0% in its fresh pair's blocks, [-13.9%, +0.1%] with
 * their own spread, while its other pairs' blocks agreed within 1%; and the 2^29-element add made 5% slower read -5% in
 * each of its fresh pair's three blocks, all at the lower of its two levels, while its other pairs' blocks jumped
 * between the levels.
 */
export function freshPairReadings(judged: DisturbedRounds['clean'], pairs: number, freshPair: number, confidence: number, level?: LowerLevel): ChangeEstimate[] {
  const fresh = roundsOfPair(judged, pairs, freshPair)
  if (level) return [lowerLevelChange(fresh, confidence, 0, level.levels)?.estimate ?? { doubts: ['their rounds gave no lower level'] }]
  return [compareBlocks(fresh.base, fresh.head, fresh.block, confidence), onePairChange(judged.base, judged.head, judged.block, pairs, freshPair, confidence)]
}

/** The rounds that ran on pair `pair` of `pairs` (block b on pair b mod pairs), in order, with their blocks. */
export function roundsOfPair(rounds: Pick<RoundsOfPairs, 'base' | 'head' | 'block'>, pairs: number, pair: number): { base: number[]; head: number[]; block: number[] } {
  const mine = rounds.block.flatMap((block, i) => (block % pairs === pair ? [i] : []))
  const pick = (values: readonly number[]) => mine.map((i) => values[i]!)
  return { base: pick(rounds.base), head: pick(rounds.head), block: pick(rounds.block) }
}

/**
 * The verdict on a paired case's rounds:
 * - judgeChange on the blocks' estimate, process spread included (with too many disturbed blocks, every block's, and
 *   the reason says which side read how slow in how many);
 * - a kernel whose rounds fall on two levels far apart and whose blocks are inconclusive: a regression where the lower
 *   level's interval is slower than the tolerance (and the head was not at the upper level less often), else
 *   inconclusive with what the lower level reads;
 * - a regression or an improvement stands only where the pair opened on fresh processes (`freshPair`), judged alone
 *   (freshPairReadings), reads the change the same way with its interval clear of zero; otherwise it is inconclusive.
 *   A process may read a few percent off for its whole life (docs/measurements.md, the rms-norm's two levels), and when
 *   the base processes of every pair do, nothing else in the run tells it from a change. Where no fresh pair ran, the
 *   change stands: the engine opens one for every case whose rounds read a change.
 */
export function judgePairedRounds(rounds: RoundsOfPairs, settings: JudgementSettings): PairedJudgement {
  const paired = pairedEstimate(rounds, settings.confidence, settings.processSpread)
  const { split, judgedRounds, processSd, estimate } = paired
  const disturbed = tooDisturbed(split)
  const onBlocks = judgeChange(estimate, settings.tolerance)
  const blocksJudged: ChangeVerdict = disturbed ? { kind: onBlocks.kind, reason: `${onBlocks.reason}; ${disturbedReason(split)}` } : onBlocks
  // A kernel whose calls read one of two times far apart: the blocks cannot judge it, its lower level can show a
  // regression. Not that it is unchanged: how often each side is at the upper level moves its whole time, and a few
  // dozen rounds cannot bound that within the tolerance (a quarter of the rounds moved up adds 3.5% to the adds).
  const level = blocksJudged.kind === 'inconclusive' && estimate.interval && !disturbed ? lowerLevelChange(judgedRounds, settings.confidence, processSd) : undefined
  const regressionAtLevel =
    level?.estimate.interval !== undefined &&
    judgeChange(level.estimate, settings.tolerance).kind === 'regression' &&
    !(level.sharesDiffer && level.upperShare.head < level.upperShare.base)
  let judged = blocksJudged
  if (regressionAtLevel) {
    judged = { kind: 'regression', reason: `the lower level's interval is slower than the tolerance ${formatFraction(settings.tolerance)}: ${levelsNote(level!)}` }
  } else if (level) {
    const reading = level.estimate.interval ? `the lower level reads ${formatChangeInterval(level.estimate.interval)}` : level.estimate.doubts.join('; ')
    judged = { kind: 'inconclusive', reason: `${blocksJudged.reason}; ${levelsNote(level)}, ${reading}, and only a regression is judged there` }
  }
  const interval = regressionAtLevel ? level!.estimate.interval : estimate.interval
  const readings =
    isChange(judged.kind) && rounds.freshPair !== undefined
      ? freshPairReadings(judgedRounds, rounds.pairs ?? 1, rounds.freshPair, settings.confidence, regressionAtLevel ? level : undefined)
      : []
  const agrees = ({ interval }: ChangeEstimate) => interval !== undefined && (judged.kind === 'regression' ? interval.high < 0 : interval.low > 0)
  const fresh = readings.find(agrees) ?? readings[0]
  if (fresh && !agrees(fresh)) {
    const read = fresh.interval ? `they read ${formatChangeInterval(fresh.interval)}` : fresh.doubts.join('; ')
    judged = { kind: 'inconclusive', reason: `${judged.reason}, but the change did not repeat on fresh processes (${read})` }
  }
  return { ...paired, judged, ...(interval && { interval }), ...(level && { level }), regressionAtLevel, ...(fresh && { fresh }) }
}
