// A paired A/B case (docs/ci-gate.md, "Paired A/B"): the same case of two solutions, the base version and the current
// one, each in a device host of its own on the same GPU, timed in alternating rounds. Each host opens its side
// (verified, warmed up, timer primed), then the worker asks them in turn for rounds of the same number of calls, in
// the order base-head, head-base, base-head, … so that a drift within a pair of rounds falls on both sides alike. A
// round's median per side, and the ratio of the two, is one paired observation; the change is read off the ratios
// (comparePairedRounds). Rounds go on until the interval is narrow enough to judge against the tolerance, or until the
// time limit; then both sides verify once more and close.
import type { CaseOutcome, CasePlan, PairRoundOutcome } from '../../shared/messages.js'
import { comparePairedRounds } from '../../shared/median-change.js'
import { sumPhases, type PhaseTimes } from '../../shared/phases.js'
import { summarize } from '../../shared/stats.js'
import type { StopReason } from '../../shared/stopping.js'
import { MIN_PAIRED_ROUNDS, type CompareSettings } from '../../spec/compare.js'
import type { CaseRun, DeviceHost } from './client.js'

/** Calls in one round at most: a round of a tiny kernel should still end within a few ms. */
const MAX_ROUND_CALLS = 256

/** The medians of the rounds both sides kept, in order, and how the rounds were run. */
export interface PairedRounds {
  base: number[]
  head: number[]
  /** Calls per round (after the sizing round, which is not used). */
  calls: number
  /** Rounds left out because a side kept no sample in it (throttled clock, interference). */
  dropped: number
}

/**
 * Both sides' outcomes, each with all its kept samples, and the rounds when both sides ran them to the end. `phases`:
 * where the case's time went on both sides together.
 */
export interface PairedRun {
  head: CaseOutcome
  base: CaseOutcome
  phases: PhaseTimes
  rounds?: PairedRounds
}

type SideName = 'base' | 'head'
type RoundSamples = Extract<PairRoundOutcome, { status: 'ok' }>

/** Whether the interval of the change is narrow enough to stop: half-width at most tolerance / 2. */
export function narrowEnough(rounds: Pick<PairedRounds, 'base' | 'head'>, settings: CompareSettings): boolean {
  if (rounds.base.length < MIN_PAIRED_ROUNDS) return false
  const { interval, doubts } = comparePairedRounds(rounds.base, rounds.head, settings.confidence)
  return interval !== undefined && doubts.length === 0 && (interval.high - interval.low) / 2 <= settings.tolerance / 2
}

/** Calls per round: about `roundMs` of the slower side's calls, from the sizing round's wall time per call. */
export function roundCalls(wallPerCallMs: number, roundMs: number): number {
  if (!(wallPerCallMs > 0)) return 1
  return Math.max(1, Math.min(MAX_ROUND_CALLS, Math.round(roundMs / wallPerCallMs)))
}

/**
 * Runs `head` against `base` on one GPU, `head` on `headHost` and `base` on `baseHost` (two host processes). Never
 * rejects: a side that fails ends the case on the other side too, and each side's outcome says what happened to it.
 */
export async function runPairedCase(headHost: DeviceHost, baseHost: DeviceHost, head: CasePlan, base: CasePlan, settings: CompareSettings): Promise<PairedRun> {
  const sides: Record<SideName, { host: DeviceHost; plan: CasePlan }> = { base: { host: baseHost, plan: base }, head: { host: headHost, plan: head } }
  const phases: PhaseTimes[] = []
  const failed: Partial<Record<SideName, CaseOutcome>> = {}
  const opened: SideName[] = []
  for (const name of ['base', 'head'] as const) {
    const { outcome, phases: spent } = await sides[name].host.pairStart(sides[name].plan)
    phases.push(spent)
    if (outcome.status !== 'ok') {
      failed[name] = outcome
      break
    }
    opened.push(name)
  }

  const rounds: PairedRounds = { base: [], head: [], calls: 1, dropped: 0 }
  let stopReason: StopReason = 'paired-limit'
  const start = performance.now()
  for (let round = 0; opened.length === 2; round++) {
    const order: SideName[] = round % 2 === 0 ? ['base', 'head'] : ['head', 'base']
    const samples: Partial<Record<SideName, RoundSamples>> = {}
    for (const name of order) {
      const { outcome, phases: spent } = await sides[name].host.pairRound(rounds.calls, sides[name].plan)
      phases.push(spent)
      if (outcome.status !== 'ok') {
        failed[name] = outcome
        break
      }
      samples[name] = outcome
    }
    const { base: baseRound, head: headRound } = samples
    if (!baseRound || !headRound) break
    if (round === 0) {
      // The sizing round: one call per side, to size the rounds; not used.
      rounds.calls = roundCalls(Math.max(baseRound.wallMs, headRound.wallMs), settings.roundMs)
      continue
    }
    if (baseRound.samplesMs.length === 0 || headRound.samplesMs.length === 0) rounds.dropped++
    else {
      rounds.base.push(summarize(baseRound.samplesMs).median)
      rounds.head.push(summarize(headRound.samplesMs).median)
    }
    if (round % 2 === 1) continue // whole base-head, head-base pairs only, so that a drift cancels
    if (narrowEnough(rounds, settings)) {
      stopReason = 'paired-interval'
      break
    }
    if (performance.now() - start >= settings.maxTimeMs) break
  }

  const outcomes: Partial<Record<SideName, CaseOutcome>> = {}
  for (const name of ['base', 'head'] as const) {
    if (!opened.includes(name)) continue
    // A side that failed has closed itself; the other verifies once more and closes.
    if (failed[name]) continue
    const ended = await sides[name].host.pairEnd(stopReason, sides[name].plan)
    phases.push(ended.phases)
    outcomes[name] = ended.outcome
  }
  const notRun = (other: SideName): CaseOutcome => ({ status: 'error', errorName: 'NotRun', message: `the ${other} side of the paired case did not open` })
  const outcome = (name: SideName, other: SideName): CaseOutcome => failed[name] ?? outcomes[name] ?? notRun(other)
  const run: PairedRun = { base: outcome('base', 'head'), head: outcome('head', 'base'), phases: sumPhases(phases) }
  const complete = run.base.status === 'ok' && run.head.status === 'ok' && Object.keys(failed).length === 0
  return complete ? { ...run, rounds } : run
}
