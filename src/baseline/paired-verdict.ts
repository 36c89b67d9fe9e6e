// The verdict on a paired A/B case (docs/ci-gate.md, "Paired A/B"): the change of speed from the base to the current
// solution, read off the ratios of the rounds' medians block by block (compareBlocks), judged against the compare
// tolerance.
import { formatFraction } from '../report/format.js'
import { disturbedReason, tooDisturbed } from '../shared/disturbed-rounds.js'
import { formatChangeInterval, formatLevel, judgeChange, type ChangeVerdict } from '../shared/median-change.js'
import { lowerLevelChange, pairedEstimate, type LowerLevel } from '../shared/paired-estimate.js'
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

/** A kernel's two levels of round times, and how often each side's rounds were at the upper one. */
function levelsNote(level: LowerLevel): string {
  const ms = (x: number) => `${x.toPrecision(4)} ms`
  const share = (x: number) => `${Math.round(x * 100)}%`
  return (
    `its rounds fall on two levels, ${ms(level.levels.lower)} and ${ms(level.levels.upper)} (upper: base ${share(level.upperShare.base)}, ` +
    `head ${share(level.upperShare.head)} of rounds)`
  )
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
  const disturbed = tooDisturbed(split)
  const blocksJudged = disturbed ? { kind: 'inconclusive' as const, reason: disturbedReason(split) } : judgeChange(estimate, compare.tolerance)
  // A kernel whose calls read one of two times far apart: the blocks cannot judge it, its lower level can show a
  // regression. Not that it is unchanged: how often each side is at the upper level moves its whole time, and a few
  // dozen rounds cannot bound that within the tolerance (a quarter of the rounds moved up adds 3.5% to the adds).
  const level = blocksJudged.kind === 'inconclusive' && estimate.interval && !disturbed ? lowerLevelChange(clean, compare.confidence, processSd) : undefined
  const regressionAtLevel =
    level?.estimate.interval && judgeChange(level.estimate, compare.tolerance).kind === 'regression' && !(level.sharesDiffer && level.upperShare.head < level.upperShare.base)
      ? level
      : undefined
  let judged: ChangeVerdict = blocksJudged
  if (regressionAtLevel) {
    judged = { kind: 'regression', reason: `the lower level's interval is slower than the tolerance ${formatFraction(compare.tolerance)}: ${levelsNote(regressionAtLevel)}` }
  } else if (level) {
    const reading = level.estimate.interval ? `the lower level reads ${formatChangeInterval(level.estimate.interval)}` : level.estimate.doubts.join('; ')
    judged = { kind: 'inconclusive', reason: `${blocksJudged.reason}; ${levelsNote(level)}, ${reading}, and only a regression is judged there` }
  }
  const interval = regressionAtLevel?.estimate.interval ?? estimate.interval
  const rounded = `${clean.base.length} paired rounds of ${rounds.calls} call${rounds.calls === 1 ? '' : 's'}`
  const notes = [
    `tolerance ${formatFraction(compare.tolerance)}`,
    ...(processSd > 0 ? [`process spread ${formatFraction(processSd)}`] : []),
    ...(pairs > 1 ? [pairsNote(pairs, processSd, estimate.pairSpread)] : []),
    regressionAtLevel
      ? `${formatLevel(compare.confidence)} interval of the two sides' medians at the lower level, from ${blocks} blocks, ${rounded}`
      : `${formatLevel(compare.confidence)} interval over ${blocks} blocks, ${rounded}`,
    ...(split.leftOut > 0 ? [`${split.leftOut} disturbed block${split.leftOut === 1 ? '' : 's'} left out`] : []),
    ...(rounds.dropped > 0 ? [`${rounds.dropped} rounds dropped`] : []),
  ].join('; ')
  const shown = interval ? formatChangeInterval(interval) : 'no interval'
  return {
    kind: judged.kind,
    against,
    ...(interval && { change: interval.change, interval: { low: interval.low, high: interval.high, confidence: interval.confidence } }),
    reason: judged.reason,
    tolerance: compare.tolerance,
    fails: judged.kind === 'regression',
    message: `${LEAD[judged.kind]} against ${against}: ${shown}: ${judged.reason} (${notes})`,
  }
}
