// A paired A/B case (docs/ci-gate.md, "Paired A/B"): the same case of two solutions, the base version and the current
// one, each in a device host of its own on the same GPU, timed in alternating rounds. Each host opens its side
// (verified, warmed up, timer primed), then the worker runs blocks: both sides move their buffers to a new place in
// memory (after a spacer of random size), then a round on each side in the order base-head, then head-base, so that a
// drift within the block falls on both sides alike. Where a buffer sits changes a memory-bound kernel's time by a few
// percent (measured: docs/measurements.md#paired-ab), so one place per side would turn that into a bias; over many
// blocks it is noise the interval sees. A round's median per side, and the ratio of the two, is one paired
// observation; each block's median ratio is one independent observation of the change (compareBlocks). Blocks go on
// until the interval is narrow enough to judge against the tolerance, or until the time limit; then both sides verify
// once more and close.
import { spacerBytes } from '../../shared/places.js'
import type { CaseOutcome, CasePlan, ErrorOutcome, PairRoundOutcome, PairStartOutcome } from '../../shared/messages.js'
import { leaveOutDisturbed, tooDisturbed } from '../../shared/disturbed-rounds.js'
import { compareBlocks, MIN_INTERVAL_BLOCKS } from '../../shared/median-change.js'
import { sumPhases, type PhaseTimes } from '../../shared/phases.js'
import { summarize } from '../../shared/stats.js'
import type { StopReason } from '../../shared/stopping.js'
import { MIN_PAIRED_BLOCKS, type CompareSettings } from '../../spec/compare.js'
import type { DeviceHost } from './client.js'

/** Calls in one round at most: a round of a tiny kernel should still end within a few ms. */
const MAX_ROUND_CALLS = 256

/** The medians of the rounds both sides kept, in order, with the block of each, and how the rounds were run. */
export interface PairedRounds {
  base: number[]
  head: number[]
  /** The block of each round: both sides' buffers were at one place during a block. */
  block: number[]
  /** Calls per round (after the sizing round, which is not used). */
  calls: number
  /** Rounds left out because a side kept no sample in them (throttled clock, interference). */
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

/**
 * Whether the interval of the change is narrow enough to stop: the undisturbed blocks' half-width at most
 * tolerance / 2, and few enough blocks disturbed to judge (disturbed-rounds.ts; while too many are, the rounds go on to
 * the time limit, which may dilute a short disturbance). The process spread that the verdict adds (paired-verdict.ts)
 * is left out: no number of blocks would shrink it.
 */
export function narrowEnough(rounds: Pick<PairedRounds, 'base' | 'head' | 'block'>, settings: CompareSettings): boolean {
  const split = leaveOutDisturbed(rounds)
  const { clean } = split
  if (tooDisturbed(split) || split.blocks - split.leftOut < MIN_PAIRED_BLOCKS) return false
  const { interval, doubts } = compareBlocks(clean.base, clean.head, clean.block, settings.confidence)
  return interval !== undefined && doubts.length === 0 && (interval.high - interval.low) / 2 <= settings.tolerance / 2
}

/** Calls per round: about `roundMs` of the slower side's calls, from the sizing round's wall time per call. */
export function roundCalls(wallPerCallMs: number, roundMs: number): number {
  if (!(wallPerCallMs > 0)) return 1
  return Math.max(1, Math.min(MAX_ROUND_CALLS, Math.round(roundMs / wallPerCallMs)))
}

/**
 * Runs `head` against `base` on one GPU, `head` on `headHost` and `base` on `baseHost` (two host processes), each
 * place behind a spacer of `drawSpacer()` bytes. Never rejects: a side that fails ends the case on the other side too,
 * and each side's outcome says what happened to it.
 */
export async function runPairedCase(
  headHost: DeviceHost,
  baseHost: DeviceHost,
  head: CasePlan,
  base: CasePlan,
  settings: CompareSettings,
  drawSpacer: () => number = spacerBytes,
): Promise<PairedRun> {
  const sides: Record<SideName, { host: DeviceHost; plan: CasePlan }> = { base: { host: baseHost, plan: base }, head: { host: headHost, plan: head } }
  const phases: PhaseTimes[] = []
  const failed: Partial<Record<SideName, CaseOutcome>> = {}
  const opened: SideName[] = []
  /** Each side's step, in order, until one fails (recorded in `failed`); the answers of the sides that went well. */
  const onBothSides = async <T extends PairStartOutcome | PairRoundOutcome>(
    order: readonly SideName[],
    step: (name: SideName) => Promise<{ outcome: T | ErrorOutcome; phases: PhaseTimes }>,
  ): Promise<Partial<Record<SideName, Extract<T, { status: 'ok' }>>>> => {
    const answers: Partial<Record<SideName, Extract<T, { status: 'ok' }>>> = {}
    for (const name of order) {
      const { outcome, phases: spent } = await step(name)
      phases.push(spent)
      if (outcome.status !== 'ok') {
        failed[name] = outcome as CaseOutcome
        break
      }
      answers[name] = outcome as Extract<T, { status: 'ok' }>
    }
    return answers
  }
  const started = await onBothSides(['base', 'head'], (name) => sides[name].host.pairStart(sides[name].plan, drawSpacer()))
  opened.push(...(['base', 'head'] as const).filter((name) => started[name]))

  const rounds: PairedRounds = { base: [], head: [], block: [], calls: 1, dropped: 0 }
  let stopReason: StopReason = 'paired-limit'
  const start = performance.now()
  const round = (order: readonly SideName[]) =>
    onBothSides<PairRoundOutcome>(order, (name) => sides[name].host.pairRound(rounds.calls, sides[name].plan)) as Promise<Partial<Record<SideName, RoundSamples>>>
  if (opened.length === 2) {
    // The sizing round: one call per side, to size the rounds; not used.
    const { base: baseRound, head: headRound } = await round(['base', 'head'])
    if (baseRound && headRound) rounds.calls = roundCalls(Math.max(baseRound.wallMs, headRound.wallMs), settings.roundMs)
  }
  for (let block = 0; opened.length === 2 && Object.keys(failed).length === 0; block++) {
    if (block > 0) {
      const moved = await onBothSides(['base', 'head'], (name) => sides[name].host.pairPlace(drawSpacer(), sides[name].plan))
      if (!moved.base || !moved.head) break
    }
    for (const order of [['base', 'head'], ['head', 'base']] as const) {
      const { base: baseRound, head: headRound } = await round(order)
      if (!baseRound || !headRound) break
      if (baseRound.samplesMs.length === 0 || headRound.samplesMs.length === 0) rounds.dropped++
      else {
        rounds.base.push(summarize(baseRound.samplesMs).median)
        rounds.head.push(summarize(headRound.samplesMs).median)
        rounds.block.push(block)
      }
    }
    if (Object.keys(failed).length > 0) break
    if (narrowEnough(rounds, settings)) {
      stopReason = 'paired-interval'
      break
    }
    // The time limit never ends the rounds before they can give an interval: a 0.4 s kernel fitted two blocks into
    // 3 s, and no change however large could be judged.
    if (performance.now() - start >= settings.maxTimeMs && new Set(rounds.block).size >= MIN_INTERVAL_BLOCKS) break
  }

  const outcomes: Partial<Record<SideName, CaseOutcome>> = {}
  for (const name of opened) {
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
