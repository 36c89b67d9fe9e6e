// What a paired A/B case's rounds say of the change (docs/ci-gate.md, "Paired A/B"): the estimate of its undisturbed
// blocks, widened by what the processes differ by. The verdict (src/baseline/paired-verdict.ts) and the engine's
// stopping rule (src/engine/worker/paired-case.ts) read this one estimate, so a case stops on the verdict it is given.
// The lower of two levels of round times (lowerLevelChange) is the verdict's alone: such a case runs to its time limit.
import { leaveOutDisturbed, type DisturbedRounds } from './disturbed-rounds.js'
import {
  bimodalSplit,
  changeFromLogRatio,
  compareBlocks,
  formatLevel,
  medianEstimate,
  normalQuantile,
  processSpreadAt,
  type BlocksEstimate,
  type ChangeEstimate,
} from './median-change.js'

export interface PairedEstimate {
  /** The blocks judged and those a disturbance touched. */
  split: DisturbedRounds
  /** What two processes differ by for this kernel (a standard deviation of the log ratio). */
  processSd: number
  estimate: BlocksEstimate
}

/**
 * The change read off `rounds` (each round's median on each side, its block, and the pairs of processes the blocks
 * rotated over: one where absent), at `confidence`, with `processSpread` (the compare option, for a 1 µs kernel).
 */
export function pairedEstimate(
  rounds: { base: readonly number[]; head: readonly number[]; block: readonly number[]; pairs?: number },
  confidence: number,
  processSpread: number,
): PairedEstimate {
  const split = leaveOutDisturbed(rounds)
  const processSd = processSpreadAt(processSpread, rounds.base)
  const { clean } = split
  return { split, processSd, estimate: compareBlocks(clean.base, clean.head, clean.block, confidence, processSd, rounds.pairs ?? 1) }
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
 * two such levels.
 */
export function lowerLevelChange(rounds: { base: readonly number[]; head: readonly number[] }, confidence: number, processSd: number): LowerLevel | undefined {
  const modes = bimodalSplit([...rounds.base, ...rounds.head])
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
