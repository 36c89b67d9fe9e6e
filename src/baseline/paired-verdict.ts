// The verdict on a paired A/B case (docs/ci-gate.md, "Paired A/B"), as the reports show it: the change of speed from
// the base to the current solution, read off the ratios of the rounds' medians block by block and judged against the
// compare tolerance (judgePairedRounds), with what it was read from.
import { formatFraction } from '../report/format.js'
import { formatChangeInterval, formatLevel } from '../shared/median-change.js'
import { tooDisturbed } from '../shared/disturbed-rounds.js'
import { judgePairedRounds } from '../shared/paired-estimate.js'
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

/**
 * The pairs of processes (the last on fresh processes, where one confirmed a change), and how far apart they read
 * where that is more than the process spread allows for.
 */
function pairsNote(pairs: number, processSd: number, pairSpread: number | undefined, freshPair: number | undefined): string {
  const apart = pairSpread !== undefined && pairSpread > processSd ? `, read ${formatFraction(pairSpread)} apart (pooled with the process spread)` : ''
  return `${pairs} pairs of processes${freshPair !== undefined ? ' (one opened fresh to confirm the change)' : ''}${apart}`
}

/** A paired case's verdict: a regression (it fails) when the whole interval is slower than the tolerance. */
export function pairedVerdict(paired: PairedCase, compare: PairedSettings): Omit<CaseVerdict, 'floors'> {
  const against = compare.base
  const rounds = paired.rounds
  if (!rounds) {
    const reason = noRounds(paired)
    return { kind: 'inconclusive', against, reason, tolerance: compare.tolerance, fails: false, message: `inconclusive against ${against}: ${reason}` }
  }
  const { split, judgedRounds, processSd, estimate, judged, interval, regressionAtLevel, fresh } = judgePairedRounds(rounds, {
    tolerance: compare.tolerance,
    confidence: compare.confidence,
    processSpread: compare.processSpread ?? 0,
  })
  const pairs = rounds.pairs ?? 1
  const blocks = new Set(judgedRounds.block).size
  const rounded = `${judgedRounds.base.length} paired rounds of ${rounds.calls} call${rounds.calls === 1 ? '' : 's'}`
  const notes = [
    `tolerance ${formatFraction(compare.tolerance)}`,
    ...(processSd > 0 ? [`process spread ${formatFraction(processSd)}`] : []),
    ...(pairs > 1 ? [pairsNote(pairs, processSd, estimate.pairSpread, rounds.freshPair)] : []),
    ...(fresh?.interval && judged.kind !== 'inconclusive' ? [`the fresh processes read ${formatChangeInterval(fresh.interval)}`] : []),
    regressionAtLevel
      ? `${formatLevel(compare.confidence)} interval of the two sides' medians at the lower level, from ${blocks} blocks, ${rounded}`
      : `${formatLevel(compare.confidence)} interval over ${blocks} blocks, ${rounded}`,
    ...(split.leftOut > 0 && !tooDisturbed(split) ? [`${split.leftOut} disturbed block${split.leftOut === 1 ? '' : 's'} left out`] : []),
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
