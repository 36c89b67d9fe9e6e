// Simulates paired A/B runs with their confirmation on fresh processes (src/engine/worker/paired-case.ts), from the
// pairs of processes that real runs of the example suite against itself stored: how often identical code fails once a
// change must repeat on fresh processes, which no one run can show. Two processes of the same code may differ for
// their whole life (the 3.7 µs rms-norm's read one of two levels), and a run reads a change only when its pairs fall
// the same way, which takes many runs to see.
// Every stored pair of processes of a case, from any of the runs given, goes into one pool (the log ratios of the
// blocks the verdict judges: disturbed ones left out unless there were too many; a fresh pair counts as one more). A
// simulated run of the case draws distinct pairs from the pool, as many as --pairs (by default the processPairs
// option's default), and draws blocks from them in turn (with replacement, block b from pair b mod their number) until
// decidedEnough holds or the case's time runs out (maxTimeMs over the time one of its stored blocks took). Where its
// verdict reads a change, it draws one more pair as the fresh one and draws its blocks until freshPairDone holds or the
// time runs out, then judges them all as the engine does (judgePairedRounds). Each block is one round a side: the base at the case's median, the head at the ratio drawn. With
// --slow F every block is made F slower: the share caught, and each case not caught in every run.
// The pool mixes boards and runs: what a pair reads against another is taken as a draw of what processes differ by.
//   npx tsx scripts/paired-confirmation-sim.ts <same.json> [...] [--runs 200] [--slow 0.05] [--pairs 2]
import { confirmingBlocks, decidedEnough, freshPairDone, leastBlocks, readsAChange, type PairedRounds } from '../src/engine/worker/paired-case.js'
import { roundsToJudge } from '../src/shared/disturbed-rounds.js'
import { blockLogRatios, isChange, type ChangeVerdict } from '../src/shared/median-change.js'
import { judgePairedRounds } from '../src/shared/paired-estimate.js'
import type { CaseResult } from '../src/shared/results.js'
import { summarize } from '../src/shared/stats.js'
import { DEFAULT_COMPARE } from '../src/spec/compare.js'
import { seededUniform } from '../tests/helpers/time-streams.js'
import { argList, leadingArgs } from './arguments.js'
import { LONG_US } from './paired-cost.js'
import { casesByName } from './results-file.js'

const files = leadingArgs()
const runs = Number(argList('--runs')[0] ?? '200')
const slow = Number(argList('--slow')[0] ?? '0')
const timedPairs = Number(argList('--pairs')[0] ?? String(DEFAULT_COMPARE.processPairs))
if (files.length === 0 || !(runs > 0) || !(slow >= 0) || !Number.isInteger(timedPairs) || timedPairs < 1) {
  console.error('usage: npx tsx scripts/paired-confirmation-sim.ts <same.json> [...] [--runs N] [--slow F] [--pairs P]')
  process.exit(2)
}
const settings = DEFAULT_COMPARE

/** A case's pool: every stored pair's block log ratios, the base's median round, and the time one block took. */
interface Pool {
  pairs: number[][]
  baseMs: number
  blockMs: number
}

/** The pairs of one stored run of a case, each with the log ratios of the blocks the verdict judges (roundsToJudge). */
function storedPairs(c: CaseResult): { pairs: number[][]; baseMs: number; blockMs: number } | undefined {
  const rounds = c.paired?.rounds
  if (!rounds) return undefined
  const { judged } = roundsToJudge(rounds)
  const count = rounds.pairs ?? 1
  const blocks = blockLogRatios(judged.base, judged.head, judged.block)
  const pairs = [...Array(count).keys()].map((p) => blocks.filter((b) => b.block % count === p).map((b) => b.logRatio)).filter((pair) => pair.length >= 2)
  const claimedMs = c.claimed ? c.claimed.toMs - c.claimed.fromMs : 0
  return { pairs, baseMs: summarize(rounds.base).median, blockMs: claimedMs > 0 ? claimedMs / blocks.length : Infinity }
}

const pools = new Map<string, Pool>()
for (const file of files) {
  for (const [key, c] of casesByName<CaseResult>(file)) {
    const stored = storedPairs(c)
    if (!stored) continue
    const pool = pools.get(key)
    if (pool) {
      pool.pairs.push(...stored.pairs)
      pool.blockMs = Math.min(pool.blockMs, stored.blockMs)
    } else pools.set(key, { ...stored, pairs: [...stored.pairs] })
  }
}

const random = seededUniform(1)
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!

/** `count` distinct indices below `n`, at random. */
function distinct(n: number, count: number): number[] {
  const chosen: number[] = []
  while (chosen.length < count) {
    const i = Math.floor(random() * n)
    if (!chosen.includes(i)) chosen.push(i)
  }
  return chosen
}

/** One simulated run of a case: the verdict before confirmation and after it. */
function simulatedRun({ pairs, baseMs, blockMs }: Pool): { before: ChangeVerdict['kind']; after: ChangeVerdict['kind'] } {
  const drawn = distinct(pairs.length, timedPairs + 1).map((i) => pairs[i]!)
  const fresh = drawn.pop()!
  const least = leastBlocks(timedPairs)
  const cap = Math.max(least, Math.floor(settings.maxTimeMs / blockMs))
  const rounds: PairedRounds = { base: [], head: [], block: [], calls: 1, perSide: 1, dropped: 0, pairs: timedPairs }
  const add = (from: readonly number[], label: number) => {
    rounds.base.push(baseMs)
    rounds.head.push(baseMs * Math.exp(pick(from)) * (1 + slow))
    rounds.block.push(label)
  }
  for (let block = 0; ; block++) {
    add(drawn[block % timedPairs]!, block)
    if (decidedEnough(rounds, settings) || (block + 1 >= cap && block + 1 >= least)) break
  }
  const before = judgePairedRounds(rounds, settings).judged.kind
  if (!readsAChange(rounds, settings)) return { before, after: before }
  const confirming = confirmingBlocks(rounds.block, timedPairs)
  Object.assign(rounds, { block: confirming.renumbered, pairs: timedPairs + 1, freshPair: timedPairs })
  for (let j = 0; ; j++) {
    add(fresh, confirming.label(j))
    if (freshPairDone(rounds, j + 1, confirming.count, settings) || j + 1 >= cap) break
  }
  return { before, after: judgePairedRounds(rounds, settings).judged.kind }
}

const pct = (x: number) => `${(100 * x).toFixed(2)}%`
let cases = 0
const changed = { before: 0, after: 0 }
/** Simulated runs and the regressions among them, of kernels of LONG_US or more and under it. */
const caught = { long: { runs: 0, regressions: 0 }, short: { runs: 0, regressions: 0 } }
const byCase: string[] = []
for (const [key, pool] of pools) {
  if (pool.pairs.length < timedPairs + 1) continue
  cases++
  const us = pool.baseMs * 1000
  let before = 0
  let after = 0
  let regressions = 0
  for (let i = 0; i < runs; i++) {
    const verdict = simulatedRun(pool)
    if (isChange(verdict.before)) before++
    if (isChange(verdict.after)) after++
    if (verdict.after === 'regression') regressions++
  }
  const band = us >= LONG_US ? caught.long : caught.short
  band.runs += runs
  band.regressions += regressions
  changed.before += before
  changed.after += after
  if (slow === 0 && before > 0) byCase.push(`  ${key} (${us.toFixed(1)} µs, ${pool.pairs.length} pairs): a change in ${before} of ${runs} runs, ${after} after confirmation`)
  if (slow > 0 && regressions < runs) byCase.push(`  ${key} (${us.toFixed(1)} µs, ${pool.pairs.length} pairs): caught in ${regressions} of ${runs} runs`)
}
console.log(`${files.length} runs pooled: ${cases} cases with ${timedPairs + 1} pairs or more, each run timed on ${timedPairs} and confirmed on one more, ${runs} simulated runs each (${cases * runs}), ${slow > 0 ? `${pct(slow)} slower` : 'identical code'}`)
if (slow === 0) {
  console.log(`  changes read: ${changed.before} before confirmation (${pct(changed.before / (cases * runs))}), ${changed.after} after (${pct(changed.after / (cases * runs))})`)
  console.log(`  false alarms a suite run: ${(changed.after / runs).toFixed(3)} (over its ${cases} cases)`)
  for (const line of byCase) console.log(line)
} else {
  const { long, short } = caught
  console.log(
    `  caught: ${long.regressions} of ${long.runs} of ${LONG_US} µs or more (${pct(long.regressions / long.runs)}), ` +
      `${short.regressions} of ${short.runs} under it (${pct(short.regressions / short.runs)})`,
  )
  for (const line of byCase) console.log(line)
}
