// Replays the paired A/B verdict (src/baseline/paired-verdict.ts) on the rounds that real paired runs stored in their
// results files (`paired.rounds`), under other tolerances and process spreads. Prints, per setting and file, the cases
// judged a regression or an improvement (false alarms when both sides ran the same code), how many of the cases of
// 20 µs or more were regressions and which were not, and how many were inconclusive.
// With --slow F, every head round is made F slower (its median multiplied by 1 + F) before it is judged: how often the
// rule would see a change of that size, as a simulation on real noise (not a planted kernel).
//   tsx scripts/paired-replay.ts <a.json> [<b.json> …] [--tolerance 0.01,0.02] [--process-spread 0,0.013] [--slow 0.02]
import { pairedVerdict } from '../src/baseline/paired-verdict.js'
import type { CaseResult } from '../src/shared/results.js'
import { summarize } from '../src/shared/stats.js'
import { argList, leadingArgs } from './arguments.js'
import { LONG_US } from './paired-cost.js'
import { casesByName } from './results-file.js'

const files = leadingArgs()
const numbers = (flag: string, fallback: string) => (argList(flag)[0] ?? fallback).split(',').map(Number)
const tolerances = numbers('--tolerance', '0.01,0.02')
const spreads = numbers('--process-spread', '0,0.013')
const slow = Number(argList('--slow')[0] ?? 0)
if (files.length === 0) {
  console.error('usage: tsx scripts/paired-replay.ts <a.json> [...] [--tolerance 0.01,0.02] [--process-spread 0,0.013] [--slow 0.02]')
  process.exit(2)
}

const pct = (x: number) => `${(100 * x).toFixed(2)}%`

for (const tolerance of tolerances) {
  for (const processSpread of spreads) {
    for (const file of files) {
      const alarms: string[] = []
      const inconclusive: string[] = []
      /** Cases of LONG_US or more that a slowdown did not make regressions. */
      const missed: string[] = []
      let judged = 0
      let long = 0
      let longCaught = 0
      let caught = 0
      for (const [key, c] of casesByName<CaseResult>(file)) {
        const rounds = c.paired?.rounds
        if (!rounds) continue
        const head = rounds.head.map((ms) => ms * (1 + slow))
        const verdict = pairedVerdict({ ...c.paired!, rounds: { ...rounds, head } }, { base: 'base', tolerance, confidence: 0.95, processSpread })
        judged++
        const us = summarize(rounds.base).median * 1000
        const line = `${key} (${us.toFixed(1)} µs): ${verdict.change === undefined ? 'no interval' : pct(verdict.change)}${verdict.interval ? ` [${pct(verdict.interval.low)}, ${pct(verdict.interval.high)}]` : ''}`
        if (verdict.kind === 'regression') caught++
        if (us >= LONG_US) {
          long++
          if (verdict.kind === 'regression') longCaught++
          else if (slow > 0) missed.push(`${verdict.kind} ${line}`)
        }
        if (slow === 0 && (verdict.kind === 'regression' || verdict.kind === 'improvement')) alarms.push(`${verdict.kind} ${line}`)
        if (verdict.kind === 'inconclusive') inconclusive.push(line)
      }
      const seen =
        slow === 0
          ? `${alarms.length} false alarms`
          : `made ${pct(slow)} slower: ${caught} regressions, ${longCaught} of the ${long} cases of ${LONG_US} µs or more`
      console.log(`tolerance ${pct(tolerance)}, process spread ${pct(processSpread)} at 1 µs, ${file}: ${judged} cases: ${seen}, ${inconclusive.length} inconclusive`)
      for (const line of [...alarms, ...missed]) console.log(`  ${line}`)
    }
  }
}
