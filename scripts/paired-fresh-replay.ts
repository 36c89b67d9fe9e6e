// Replays the confirmation on fresh processes (docs/ci-gate.md, "Confirmed on fresh processes") on results files of
// paired runs on two pairs of processes that had no fresh pair: each pair in turn is judged alone, as if it were the
// only pair, and where it reads a change the other pair's blocks stand for the fresh pair's (judgePairedRounds). On a
// run of identical code every change read by one pair is false, and the share the other pair confirms is how often a
// fresh pair repeats a false change; on a planted run, how often it confirms a real one.
//   tsx scripts/paired-fresh-replay.ts <a.json> [<b.json> …] [--tolerance 0.01] [--process-spread 0.013]
import { isChange } from '../src/shared/median-change.js'
import { judgePairedRounds, roundsOfPair, type RoundsOfPairs } from '../src/shared/paired-estimate.js'
import type { CaseResult } from '../src/shared/results.js'
import { summarize } from '../src/shared/stats.js'
import { argList, leadingArgs } from './arguments.js'
import { casesByName } from './results-file.js'

const files = leadingArgs()
const settings = {
  tolerance: Number(argList('--tolerance')[0] ?? 0.01),
  confidence: 0.95,
  processSpread: Number(argList('--process-spread')[0] ?? 0.013),
}
if (files.length === 0) {
  console.error('usage: tsx scripts/paired-fresh-replay.ts <a.json> [...] [--tolerance 0.01] [--process-spread 0.013]')
  process.exit(2)
}

type Rounds = NonNullable<NonNullable<CaseResult['paired']>['rounds']>

/** The rounds of `pair` of two, numbered as blocks of pair `as` of `pairs` (block k of the pair becomes pairs·k + as). */
function pairRounds(rounds: Rounds, pair: number, as: number, pairs: number): { base: number[]; head: number[]; block: number[] } {
  const mine = roundsOfPair(rounds, 2, pair)
  return { ...mine, block: mine.block.map((block) => pairs * Math.floor(block / 2) + as) }
}

for (const file of files) {
  let trials = 0
  let changes = 0
  let confirmed = 0
  const lines: string[] = []
  for (const [key, c] of casesByName<CaseResult>(file)) {
    const rounds = c.paired?.rounds
    if (!rounds || rounds.pairs !== 2 || rounds.freshPair !== undefined) continue
    for (const original of [0, 1]) {
      trials++
      const alone = judgePairedRounds({ ...pairRounds(rounds, original, 0, 1), pairs: 1 }, settings)
      if (!isChange(alone.judged.kind)) continue
      changes++
      const first = pairRounds(rounds, original, 0, 2)
      const fresh = pairRounds(rounds, 1 - original, 1, 2)
      const both: RoundsOfPairs = {
        base: [...first.base, ...fresh.base],
        head: [...first.head, ...fresh.head],
        block: [...first.block, ...fresh.block],
        pairs: 2,
        freshPair: 1,
      }
      const judged = judgePairedRounds(both, settings).judged
      const stands = judged.kind === alone.judged.kind
      if (stands) confirmed++
      const us = (1000 * summarize(rounds.base).median).toFixed(1)
      lines.push(`  ${stands ? 'confirmed' : 'not confirmed'}: ${key} (${us} µs), pair ${original} alone ${alone.judged.kind}: ${judged.reason}`)
    }
  }
  console.log(`${file}: ${trials} pair-trials, ${changes} read a change alone, ${confirmed} of them confirmed by the other pair`)
  for (const line of lines) console.log(line)
}
