// The verdict on a paired A/B case (docs/ci-gate.md, "Paired A/B"): the change of speed from the base to the current
// solution, read off the ratios of the rounds' medians block by block (compareBlocks), judged against the compare
// tolerance.
import { formatFraction } from '../report/format.js'
import { disturbedReason, tooDisturbed } from '../shared/disturbed-rounds.js'
import { bimodalSplit, formatChangeInterval, formatLevel, judgeChange } from '../shared/median-change.js'
import { pairedEstimate } from '../shared/paired-estimate.js'
import type { CaseVerdict, KernelBenchResult, PairedCase } from '../shared/results.js'

type PairedSettings = NonNullable<KernelBenchResult['compare']>

const LEAD = { regression: 'regression', improvement: 'faster', unchanged: 'unchanged', inconclusive: 'inconclusive' } as const

/** Why the base side gave no rounds: its failure, or the current side's. */
function noRounds(paired: PairedCase): string {
  const base = paired.base.outcome
  if (base.status === 'wrong') return `the base solution gave a wrong answer: ${base.message}`
  if (base.status === 'error') return `the base solution failed: ${base.errorName}: ${base.message}`
  return 'the rounds did not run to the end'
}

/** The pairs of processes, and how far apart they read where that is more than the process spread allows for. */
function pairsNote(pairs: number, processSd: number, pairSpread: number | undefined): string {
  const apart = pairSpread !== undefined && pairSpread > processSd ? `, read ${formatFraction(pairSpread)} apart (pooled with the process spread)` : ''
  return `${pairs} pairs of processes${apart}`
}

/**
 * Why an interval came out wide, where a side's rounds jump between two levels: each round's median then lands on
 * one or the other, and the blocks' ratios spread by the whole gap (the 2^30-element add on an H100 read 4.19 or
 * 4.77 ms a call).
 */
function bimodalRounds(rounds: { base: readonly number[]; head: readonly number[] }): string | undefined {
  for (const side of ['base', 'head'] as const) {
    const modes = bimodalSplit(rounds[side])
    if (!modes) continue
    const share = Math.round(modes.lowerShare * 100)
    const level = (ms: number) => `${ms.toPrecision(4)} ms`
    return `the ${side} side's rounds are bimodal (${share}% near ${level(modes.lowerMean)}, ${100 - share}% near ${level(modes.upperMean)})`
  }
  return undefined
}

/** A paired case's verdict: a regression (it fails) when the whole interval is slower than the tolerance. */
export function pairedVerdict(paired: PairedCase, compare: PairedSettings): Omit<CaseVerdict, 'floors'> {
  const against = compare.base
  const rounds = paired.rounds
  if (!rounds) {
    const reason = noRounds(paired)
    return { kind: 'inconclusive', against, reason, tolerance: compare.tolerance, fails: false, message: `inconclusive against ${against}: ${reason}` }
  }
  const { split, processSd, estimate } = pairedEstimate(rounds, compare.confidence, compare.processSpread ?? 0)
  const { clean } = split
  const pairs = rounds.pairs ?? 1
  const blocks = split.blocks - split.leftOut
  // A disturbed case shows the change of its other blocks, but is not judged on them.
  const judged = tooDisturbed(split) ? { kind: 'inconclusive' as const, reason: disturbedReason(split) } : judgeChange(estimate, compare.tolerance)
  const interval = estimate.interval
  const bimodal = judged.kind === 'inconclusive' && interval && !tooDisturbed(split) ? bimodalRounds(clean) : undefined
  const reason = bimodal ? `${judged.reason}; ${bimodal}` : judged.reason
  const notes = [
    `tolerance ${formatFraction(compare.tolerance)}`,
    ...(processSd > 0 ? [`process spread ${formatFraction(processSd)}`] : []),
    ...(pairs > 1 ? [pairsNote(pairs, processSd, estimate.pairSpread)] : []),
    `${formatLevel(compare.confidence)} interval over ${blocks} blocks, ${clean.base.length} paired rounds of ${rounds.calls} call${rounds.calls === 1 ? '' : 's'}`,
    ...(split.leftOut > 0 ? [`${split.leftOut} disturbed block${split.leftOut === 1 ? '' : 's'} left out`] : []),
    ...(rounds.dropped > 0 ? [`${rounds.dropped} rounds dropped`] : []),
  ].join('; ')
  const shown = interval ? formatChangeInterval(interval) : 'no interval'
  return {
    kind: judged.kind,
    against,
    ...(interval && { change: interval.change, interval: { low: interval.low, high: interval.high, confidence: interval.confidence } }),
    reason,
    tolerance: compare.tolerance,
    fails: judged.kind === 'regression',
    message: `${LEAD[judged.kind]} against ${against}: ${shown}: ${reason} (${notes})`,
  }
}
