// Simulates the paired A/B verdict (src/baseline/paired-verdict.ts) under another stopping rule than the one the runs
// used, on the blocks that real paired runs stored (`paired.rounds`): each trial draws a case's blocks again, with
// replacement and in a new order, until the rule stops, then judges. The blocks carry each case's own difference
// between the two processes, so what no number of blocks removes stays in. With --slow F every block is made F
// slower. Rules:
//   interval   stop once the blocks' half-width is at most tolerance / 2 (at least 8 blocks): the engine's rule before
//              2026-11-27 (night)
//   decided    the engine's rule (decidedEnough): go on past that while the verdict (process spread included) is
//              inconclusive, until the blocks' half-width is at most tolerance / 4 or the case's time runs out
// A case timed on several pairs of processes draws block i from the stored blocks of pair i mod pairs, so each pair keeps
// what its processes differ by. Disturbed blocks are left out first, as the verdict leaves them out (unless there
// were too many).
// A case's time: maxTimeMs (3 s) over the time one of its stored blocks took (its claimed time over its blocks).
// It reports the blocks drawn against those stored, over all and by kernel band, and with --slow the case-trials caught
// of 20 µs or more (the 2% bar) and under it.
// With --cap-factor F, a case stops after F times the blocks its stored run took instead.
// With --one-round-from US, the blocks of kernels of US µs or more keep their first round a side only (the first side's
// round after its move and the second side's first round after its own), as the engine runs them from 50 µs up.
//   tsx scripts/paired-stopping-sim.ts <a.json> [...] [--rule decided] [--slow 0.02] [--tolerance 0.01]
//                                      [--process-spread 0.013] [--trials 20] [--cap-factor 3] [--one-round-from 50]
import { blocksState, decidedEnough } from '../src/engine/worker/paired-case.js'
import { roundsToJudge } from '../src/shared/disturbed-rounds.js'
import { blockLogRatios, compareBlocks, judgeChange, MIN_INTERVAL_BLOCKS, processSpreadAt } from '../src/shared/median-change.js'
import type { CaseResult } from '../src/shared/results.js'
import { summarize } from '../src/shared/stats.js'
import { DEFAULT_COMPARE } from '../src/spec/compare.js'
import { seededUniform } from '../tests/helpers/time-streams.js'
import { argList, leadingArgs } from './arguments.js'
import { BANDS, LONG_US } from './paired-cost.js'
import { casesByName } from './results-file.js'

const files = leadingArgs()
const option = (flag: string, fallback: string) => argList(flag)[0] ?? fallback
const rule = option('--rule', 'interval')
const slow = Number(option('--slow', '0'))
const tolerance = Number(option('--tolerance', String(DEFAULT_COMPARE.tolerance)))
const spreadAt1us = Number(option('--process-spread', String(DEFAULT_COMPARE.processSpread)))
const trials = Number(option('--trials', '20'))
/** Instead of the time limit: at most this many times the blocks a case's stored run took. */
const capArgument = argList('--cap-factor')[0]
const capFactor = capArgument === undefined ? undefined : Number(capArgument)
const oneRoundFromUs = Number(option('--one-round-from', 'Infinity'))
if (files.length === 0 || !['interval', 'decided'].includes(rule)) {
  console.error('usage: tsx scripts/paired-stopping-sim.ts <a.json> [...] [--rule interval|decided] [--slow F] [--tolerance T] [--process-spread S] [--trials N] [--cap-factor F] [--one-round-from US]')
  process.exit(2)
}

/** One trial: blocks drawn until the rule stops (or `cap`); the verdict and the blocks it took. */
function trial(stored: readonly (readonly number[])[], baseMs: number, cap: number, random: () => number): { kind: string; blocks: number } {
  const settings = { ...DEFAULT_COMPARE, tolerance, processSpread: spreadAt1us }
  // One round per drawn block, the base at the case's median and the head at the ratio drawn: each block's median
  // ratio is what was drawn, and the process spread is the case's.
  const rounds = { base: [] as number[], head: [] as number[], block: [] as number[], pairs: stored.length }
  for (;;) {
    const pair = stored[rounds.block.length % stored.length]!
    rounds.base.push(baseMs)
    rounds.head.push(baseMs * Math.exp(pair[Math.floor(random() * pair.length)]!))
    rounds.block.push(rounds.block.length)
    const kind = judgeChange(compareBlocks(rounds.base, rounds.head, rounds.block, 0.95, processSpreadAt(spreadAt1us, rounds.base), stored.length), tolerance).kind
    const narrow = (blocksState(rounds, settings)?.blocksHalfWidth ?? Infinity) <= tolerance / 2
    const stop = rule === 'interval' ? narrow : decidedEnough(rounds, settings)
    if (stop || rounds.block.length >= cap) return { kind, blocks: rounds.block.length }
  }
}

/** Each block's first round on both sides: a block of one round a side. */
function firstRoundOfEachBlock(rounds: { base: number[]; head: number[]; block: number[] }): { base: number[]; head: number[]; block: number[] } {
  const first = rounds.block.map((block, i) => rounds.block.indexOf(block) === i)
  const keep = <T>(xs: T[]) => xs.filter((_, i) => first[i])
  return { base: keep(rounds.base), head: keep(rounds.head), block: keep(rounds.block) }
}

// Seeded, so that two rules meet the same draws.
const random = seededUniform(1)
for (const file of files) {
  let cases = 0
  let alarms = 0
  let inconclusive = 0
  let long = 0
  let longCaught = 0
  let short = 0
  let shortCaught = 0
  let blocksUsed = 0
  let blocksStored = 0
  /** Blocks drawn and stored, by kernel band (paired-cost.ts's bands). */
  const bands = BANDS.map(([fromUs]) => ({ fromUs, used: 0, stored: 0 }))
  /** The false alarms per case, with the case's time. */
  const alarmed = new Map<string, number>()
  for (const [key, c] of casesByName<CaseResult>(file)) {
    const rounds = c.paired?.rounds
    if (!rounds) continue
    const us = summarize(rounds.base).median * 1000
    // As the verdict does: disturbed blocks left out, unless there were too many of them.
    const { judged } = roundsToJudge(rounds)
    const clean = us >= oneRoundFromUs ? firstRoundOfEachBlock(judged) : judged
    const blocks = blockLogRatios(clean.base, clean.head.map((ms) => ms * (1 + slow)), clean.block)
    if (blocks.length < MIN_INTERVAL_BLOCKS) continue
    const pairs = rounds.pairs ?? 1
    const stored = [...Array(pairs).keys()].map((p) => blocks.filter((b) => b.block % pairs === p).map((b) => b.logRatio))
    if (stored.some((pair) => pair.length === 0)) continue
    const claimedMs = c.claimed ? c.claimed.toMs - c.claimed.fromMs : 0
    const perBlockMs = claimedMs > 0 ? claimedMs / blocks.length : Infinity
    const cap = capFactor !== undefined ? Math.round(capFactor * blocks.length) : Math.max(blocks.length, Math.floor(DEFAULT_COMPARE.maxTimeMs / perBlockMs))
    for (let i = 0; i < trials; i++) {
      const { kind, blocks: drawn } = trial(stored, summarize(rounds.base).median, cap, random)
      cases++
      blocksUsed += drawn
      blocksStored += blocks.length
      const band = bands[BANDS.findIndex(([from, to]) => us >= from && us < to)]!
      band.used += drawn
      band.stored += blocks.length
      if (kind === 'inconclusive') inconclusive++
      if (slow === 0 && (kind === 'regression' || kind === 'improvement')) {
        alarms++
        const name = `${key} (${us.toFixed(1)} µs)`
        alarmed.set(name, (alarmed.get(name) ?? 0) + 1)
      }
      if (us >= LONG_US) {
        long++
        if (kind === 'regression') longCaught++
      } else {
        short++
        if (kind === 'regression') shortCaught++
      }
    }
  }
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`
  const seen =
    slow === 0
      ? `${alarms} false alarms`
      : `${longCaught} of ${long} case-trials of ${LONG_US} µs or more caught (${pct(longCaught / long)}), ${shortCaught} of ${short} under it`
  console.log(
    `rule ${rule}, tolerance ${pct(tolerance)}, process spread ${pct(spreadAt1us)} at 1 µs, slower by ${pct(slow)}, ${file}: ` +
      `${cases} case-trials (${trials} per case): ${seen}, ${inconclusive} inconclusive; blocks ×${(blocksUsed / blocksStored).toFixed(2)} of the stored runs'`,
  )
  console.log(`  blocks by kernel band: ${bands.map((b) => `from ${b.fromUs} µs ×${(b.used / b.stored).toFixed(2)}`).join(', ')}`)
  for (const [name, count] of alarmed) console.log(`  false alarm in ${count} of ${trials} trials: ${name}`)
}
