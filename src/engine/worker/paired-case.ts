// A paired A/B case (docs/ci-gate.md, "Paired A/B"): the same case of two solutions, the base version and the current
// one, each in device hosts of its own on the same GPU, timed in alternating rounds. Every host starts at once; the case
// opens on every pair of hosts (a base process and a head process: verified on the first pair, warmed up, timer
// primed), then the worker runs blocks, block b on pair b mod pairs: the side that goes first moves its buffers to a new
// place in memory (after a spacer of random size) and runs a round, the other side moves and runs two, the first runs
// one more (the side that goes first alternates over a pair's blocks, blockOrder), so that each side's first round
// follows its own move and a drift within the block falls on both sides alike; each side's step is one request. A
// kernel of 50 µs or more runs one round a side per block (roundsPerSide): the first side moves and runs it, then the
// other. Where a buffer sits changes a memory-bound kernel's time by a few percent, so one place per side would turn
// that into a bias; over many blocks it is noise the interval sees. Two processes of the same code also differ by
// something no move reaches, for their whole life (measured: docs/measurements.md#what-two-processes-differ-by):
// several pairs average it and show it. A round's median per side, and the ratio of the two, is one paired
// observation; each block's median ratio is one observation of the change (compareBlocks). Blocks go on until the
// interval is narrow enough to judge against the tolerance (decidedEnough), or until the time limit. Where they read a
// change, the first pair's processes make way for fresh ones, which run blocks until they confirm it, or as many as a
// pair ran and until the case is decided: a process may read a few percent off for its whole life, and the change
// stands only if the fresh pair reads it too. Then the first pair's sides verify once more, and every side closes.
import { placedLayout, SPACER_RANGE_BYTES, spacerBytes } from '../../shared/places.js'
import type { CaseOutcome, CasePlan, ErrorOutcome, PairPlace, PairRound, PairRoundsOutcome, PairStartOutcome, TimingResult } from '../../shared/messages.js'
import { tooDisturbed } from '../../shared/disturbed-rounds.js'
import { isChange, judgeChange, MIN_INTERVAL_BLOCKS, type ChangeVerdict } from '../../shared/median-change.js'
import { judgePairedRounds, pairedEstimate } from '../../shared/paired-estimate.js'
import { sumPhases, type PhaseTimes } from '../../shared/phases.js'
import { summarize } from '../../shared/stats.js'
import type { StopReason } from '../../shared/stopping.js'
import { MIN_PAIRED_BLOCKS, type CompareSettings } from '../../spec/compare.js'
import type { DeviceHost } from './client.js'
import type { RegionSource, SharedRegion } from './shared-regions.js'

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
  /** Rounds a side per block (roundsPerSide): 2, or 1 for kernels of 50 µs or more. */
  perSide: 1 | 2
  /** Rounds left out because a side kept no sample in them (throttled clock, interference). */
  dropped: number
  /** The pairs of processes the blocks rotated over: block b ran on pair b mod pairs. */
  pairs: number
  /** The pair opened on fresh processes once the others read a change: its blocks alone must read it too. */
  freshPair?: number
  /** Whether both sides of every pair timed at the same places, in a region they shared (shared-regions.ts). */
  sharedPlaces?: boolean
  /** Where a pair found no region to share: why (the first such pair's reason); its sides placed buffers of their own. */
  unsharedReason?: string
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

/** Where a paired case's undisturbed blocks stand: their own half-width, and the verdict they would give now. */
export interface BlocksState {
  blocksHalfWidth: number
  verdict: ChangeVerdict['kind']
}

/**
 * The undisturbed blocks' half-width (within the pairs of processes) and the verdict on them, process spread included,
 * as paired-verdict.ts gives it; undefined while too few blocks are clean or too many are disturbed (disturbed-rounds.ts:
 * the rounds go on to the time limit, which may dilute a short disturbance).
 */
export function blocksState(rounds: Pick<PairedRounds, 'base' | 'head' | 'block'> & { pairs?: number }, settings: CompareSettings): BlocksState | undefined {
  const { split, estimate } = pairedEstimate(rounds, settings.confidence, settings.processSpread)
  if (tooDisturbed(split) || split.blocks - split.leftOut < MIN_PAIRED_BLOCKS) return undefined
  if (estimate.blocksHalfWidth === undefined || estimate.doubts.length > 0) return undefined
  return { blocksHalfWidth: estimate.blocksHalfWidth, verdict: judgeChange(estimate, settings.tolerance).kind }
}

/**
 * Whether a case has enough blocks to stop: their half-width at most tolerance / 2 and a verdict other than
 * inconclusive (or a kernel under DECIDED_FROM_MS), or at most tolerance / 4 whatever the verdict. A change near the
 * tolerance line gets more blocks instead of an inconclusive verdict: replayed on the stored blocks of three runs of the
 * example suite against itself (H100s, 2026-11-27), with 2% added to every block, it caught 95–98% of the cases of
 * 20 µs or more where stopping at tolerance / 2 caught 92–95%, with no more false alarms, for 1.0–1.14× the blocks.
 * What the processes differ by is no reason to go on: no number of blocks shrinks it.
 */
export function decidedEnough(rounds: Pick<PairedRounds, 'base' | 'head' | 'block'> & { pairs?: number }, settings: CompareSettings): boolean {
  const state = blocksState(rounds, settings)
  if (!state) return false
  if (state.blocksHalfWidth <= settings.tolerance / 4) return true
  if (state.blocksHalfWidth > settings.tolerance / 2) return false
  return state.verdict !== 'inconclusive' || summarize(rounds.base).median < DECIDED_FROM_MS
}

/**
 * Under this kernel time (ms, the base side's median round) a case stops at tolerance / 2 whatever its verdict. There
 * what two processes differ by (0.29% at 20 µs, 0.92% at 2 µs, before the pairs average it) takes up much of the
 * tolerance, and going on rarely decides a case: replayed on the blocks of two runs of the example suite against
 * itself (H100s, 2026-11-28), going on to tolerance / 4 decided a fifth of the case-trials under 20 µs that stopping
 * at tolerance / 2 left inconclusive, for 1.4–1.9× their blocks, and stopping at tolerance / 2 still caught all of
 * them made 5.3% slower, with no more false alarms.
 */
export const DECIDED_FROM_MS = 0.02

/**
 * From this kernel time (ms) a block runs one round a side instead of two. On H100s (2026-11-27, three runs of the example
 * suite against itself) a round's own spread was 0.35–0.46% from 50 µs and 0.17% from 200 µs, and most such cases
 * stopped at the fewest blocks with half-widths far inside tolerance / 2: a second round a side bought them nothing but
 * time. Under 50 µs the blocks, not their number, decide, and a second round a side narrows each block for less than
 * a block costs.
 */
export const ONE_ROUND_FROM_MS = 0.05

/**
 * Rounds a side per block, from the sizing round of each side: one when both sides' kernels took ONE_ROUND_FROM_MS or
 * more, else two (also when a sizing round kept no sample).
 */
export function roundsPerSide(sizing: readonly PairRound[]): 1 | 2 {
  const kernelMs = Math.min(...sizing.map((round) => (round.samplesMs.length > 0 ? Math.min(...round.samplesMs) : 0)))
  return kernelMs >= ONE_ROUND_FROM_MS ? 1 : 2
}

/** Calls per round: about `roundMs` of the slower side's calls, from the sizing round's wall time per call. */
export function roundCalls(wallPerCallMs: number, roundMs: number): number {
  if (!(wallPerCallMs > 0)) return 1
  return Math.max(1, Math.min(MAX_ROUND_CALLS, Math.round(roundMs / wallPerCallMs)))
}

/**
 * Which side goes first in block `block` on `pairs` pairs: the side that moves and runs first, and last. Each pair's
 * blocks alternate: a side's second round follows its own first round when it goes second and the other side's rounds
 * when it goes first, and always giving the first place to the base leant identical code about 0.1% towards the head
 * on kernels of 20–50 µs (H100s, 2026-11-27, when the moves of both sides came before the rounds).
 */
export function blockOrder(block: number, pairs: number): readonly [SideName, SideName] {
  return Math.floor(block / pairs) % 2 === 0 ? ['base', 'head'] : ['head', 'base']
}

/** Whether the rounds read a regression or an improvement, which fresh processes must then confirm. */
export function readsAChange(rounds: PairedRounds, settings: CompareSettings): boolean {
  return isChange(judgePairedRounds(rounds, settings).judged.kind)
}

/**
 * Whether the fresh pair has run blocks enough, `blocks` of them: from MIN_INTERVAL_BLOCKS, once it confirms the change
 * (which ends it early: on an H100 every case of the suite made 2% slower cost 2.0× the run against itself when each
 * fresh pair ran its full count); else once it has run `count` blocks and the blocks of every pair decide the case
 * (decidedEnough). A fresh pair that ran its count with one odd block among three can leave the whole case too wide
 * to judge: on an H100 (2026-11-28) the 2^29-element add made 5% slower read -4.6% to -5.5% in its first six blocks,
 * and its fresh pair -4.7%, +6.7% (the base at the upper of its two levels, the head at the lower) and -4.7%,
 * which over all nine was -3.7% [-6.7%, -0.7%], inconclusive.
 */
export function freshPairDone(rounds: PairedRounds, blocks: number, count: number, settings: CompareSettings): boolean {
  if (blocks < MIN_INTERVAL_BLOCKS) return false
  return readsAChange(rounds, settings) || (blocks >= count && decidedEnough(rounds, settings))
}

/**
 * The blocks of `pairs` pairs numbered as blocks of one pair more, whose last pair is the fresh one: block b of pair
 * b mod pairs becomes block (pairs + 1)·⌊b / pairs⌋ + b mod pairs, and the fresh pair's block j is
 * (pairs + 1)·j + pairs. Every block still ran on pair b mod (pairs + 1), which is all the estimate reads off the
 * numbers. `count`: the fresh pair's blocks, as many as a pair ran before and at least an interval's worth.
 */
export function confirmingBlocks(block: readonly number[], pairs: number): { renumbered: number[]; label: (j: number) => number; count: number } {
  const renumbered = block.map((b) => (pairs + 1) * Math.floor(b / pairs) + (b % pairs))
  const count = Math.max(MIN_INTERVAL_BLOCKS, Math.ceil(new Set(block).size / pairs))
  return { renumbered, label: (j) => (pairs + 1) * j + pairs, count }
}

/** A base host and a head host of one GPU: two device host processes of their own. */
export interface HostPair {
  base: DeviceHost
  head: DeviceHost
}

/**
 * The fewest blocks before the time limit may end a case on `pairs` pairs: two on each, so that each pair's blocks
 * have a spread of their own (compareBlocks takes it within the pairs).
 */
export function leastBlocks(pairs: number): number {
  return Math.max(MIN_INTERVAL_BLOCKS, 2 * pairs)
}

/**
 * The phases of host starts that ran side by side, as the wall time they took together (summed, four hosts starting
 * at once would count four times over): the longest wait for the GPU's lock, and the rest.
 */
export function sideBySide(starts: readonly PhaseTimes[], wallMs: number): PhaseTimes {
  const gpuWait = Math.min(wallMs, Math.max(0, ...starts.map((start) => start.gpuWait ?? 0)))
  return { hostStart: wallMs - gpuWait, gpuWait }
}

/**
 * The phases of requests that ran at once on hosts of one GPU, as the wall time they took together: their work holds
 * the GPU's lock one host at a time, so it adds up; their waits for the lock overlap each other's work, and count only
 * as far as the longest wait leaves the wall time without work.
 */
export function underOneLock(runs: readonly PhaseTimes[], wallMs: number): PhaseTimes {
  const work = sumPhases(runs.map(({ gpuWait: _wait, ...rest }) => rest))
  const worked = Object.values(work).reduce((sum, ms) => sum + ms, 0)
  const gpuWait = Math.min(Math.max(0, ...runs.map((run) => run.gpuWait ?? 0)), Math.max(0, wallMs - worked))
  return gpuWait > 0 ? { ...work, gpuWait } : work
}

/** One side's outcome from its hosts of every pair: the first failure, or their samples and counts together. */
export function mergeSideOutcomes(outcomes: readonly CaseOutcome[]): CaseOutcome {
  const failure = outcomes.find((outcome) => outcome.status !== 'ok')
  if (failure || outcomes.length <= 1) return failure ?? outcomes[0]!
  const oks = outcomes as Extract<CaseOutcome, { status: 'ok' }>[]
  const timings = oks.flatMap((outcome) => (outcome.timing ? [outcome.timing] : []))
  const first = oks[0]!
  if (timings.length === 0) return first
  const total = (count: (timing: TimingResult) => number | undefined) => timings.reduce((sum, timing) => sum + (count(timing) ?? 0), 0)
  const clocks = timings.map((timing) => timing.meanSmClockMHz).filter((mhz) => Number.isFinite(mhz))
  const timing: TimingResult = {
    ...timings[0]!,
    samplesMs: timings.flatMap((t) => t.samplesMs),
    droppedThrottled: total((t) => t.droppedThrottled),
    droppedInterference: total((t) => t.droppedInterference),
    meanSmClockMHz: clocks.length > 0 ? clocks.reduce((sum, mhz) => sum + mhz, 0) / clocks.length : NaN,
    // The pairs ran interleaved: the case's wall time is the longest side's, not their sum.
    wallMs: Math.max(...timings.map((t) => t.wallMs)),
    checkedCalls: total((t) => t.checkedCalls),
    ...(timings.some((t) => t.auditedCalls !== undefined) && { auditedCalls: total((t) => t.auditedCalls) }),
    ...(timings.some((t) => t.places !== undefined) && { places: total((t) => t.places) }),
  }
  return { ...first, timing }
}

/** What went wrong in a side's outcome, for the other side's message. */
function failureText(outcome: CaseOutcome | undefined): string {
  if (outcome?.status === 'wrong') return `a wrong answer: ${outcome.message}`
  if (outcome?.status === 'error') return `${outcome.errorName}: ${outcome.message}`
  return 'no failure recorded'
}

/**
 * The head side's outcome when the base side failed after the head had opened the case beside it: the case fails, as
 * it does when the base fails before (the head then does not open: NotRun). Without this, a base that fails mid-rounds
 * or in its last verified call would leave the comparison without rounds, inconclusive, and the current solution would
 * pass unjudged, although running beside the base, on one GPU and in memory both sides share, it may have made the
 * base fail (GPU work left running between its calls, writes into the shared outputs).
 */
export function besideFailure(base: CaseOutcome): ErrorOutcome {
  return {
    status: 'error',
    errorName: 'PairedBaseFailed',
    message:
      `the base solution failed after this solution had opened the case beside it (${failureText(base)}). ` +
      'Both ran on one GPU, in memory they share, so this solution may have caused it (GPU work left running between ' +
      'its calls, writes into the shared outputs) and the case fails; a base that fails on its own fails its plain run ' +
      'too (vitest bench without KERNELBENCH_COMPARE_REF)',
  }
}

/**
 * Where the blocks of a paired case are placed: each pair's two sides at the same offset (`drawSpacer()` bytes) into a
 * region of `regions` that both open, or, where no region can be had, each side behind a spacer of its own.
 */
export interface PairPlaces {
  drawSpacer?: () => number
  regions?: RegionSource
}

/**
 * Runs `head` against `base` on one GPU, on every pair of `pairs` (block b on pair b mod the pairs that opened), at the
 * places `places` gives. A pair after the first that finds no memory for the case is left out (each pair holds the
 * case's buffers at once: those its sides share, and each side's own). Never rejects: a side that fails ends the case
 * on the other side too, and each side's outcome says what happened to it.
 */
export async function runPairedCase(
  pairs: readonly HostPair[],
  head: CasePlan,
  base: CasePlan,
  settings: CompareSettings,
  { drawSpacer = spacerBytes, regions }: PairPlaces = {},
): Promise<PairedRun> {
  const plans: Record<SideName, CasePlan> = { base, head }
  /** Each pair's shared region, from its opening until both its sides have ended. */
  const shared: (SharedRegion | undefined)[] = pairs.map(() => undefined)
  /** Why the first pair that found no region to share found none. */
  let unsharedReason: string | undefined
  const freeRegion = async (pair: number) => {
    const region = shared[pair]
    shared[pair] = undefined
    await region?.free()
  }
  /** The places of one step on `pair`: the same shared offset for both sides, or a spacer for each. */
  const placesOn = (pair: number): (() => PairPlace) => {
    const region = shared[pair]
    if (!region) return () => ({ spacerBytes: drawSpacer() })
    const place = { region: region.handle, offsetBytes: drawSpacer() }
    return () => place
  }
  /** Opens `pair` on both sides, in a region of its own where one can be had. */
  const openPair = async (pair: number, verify: boolean) => {
    const offer = regions ? await regions(Math.max(placedLayout(base).bytes, placedLayout(head).bytes) + SPACER_RANGE_BYTES) : { unavailable: 'no shared memory was offered' }
    if ('unavailable' in offer) unsharedReason ??= offer.unavailable
    else shared[pair] = offer
    const place = placesOn(pair)
    return onSides(pair, ['base', 'head'], (host, name) => host.pairStart(plans[name], place(), verify))
  }
  const phases: PhaseTimes[] = []
  const failed: Partial<Record<SideName, CaseOutcome>> = {}
  /** The sides open on each pair. */
  const opened: SideName[][] = pairs.map(() => [])
  /** Each side's step on `pair`, in order, until one fails (recorded in `failed`); the answers of the sides that went well. */
  const onSides = async <T extends PairStartOutcome | PairRoundsOutcome>(
    pair: number,
    order: readonly SideName[],
    step: (host: DeviceHost, name: SideName) => Promise<{ outcome: T | ErrorOutcome; phases: PhaseTimes }>,
  ): Promise<Partial<Record<SideName, Extract<T, { status: 'ok' }>>>> => {
    const answers: Partial<Record<SideName, Extract<T, { status: 'ok' }>>> = {}
    for (const name of order) {
      const { outcome, phases: spent } = await step(pairs[pair]![name], name)
      phases.push(spent)
      if (outcome.status !== 'ok') {
        failed[name] ??= outcome as CaseOutcome
        opened[pair] = opened[pair]!.filter((side) => side !== name)
        break
      }
      answers[name] = outcome as Extract<T, { status: 'ok' }>
    }
    return answers
  }
  const ended: Record<SideName, CaseOutcome[]> = { base: [], head: [] }
  /**
   * Closes the sides open on `closed` pairs, all at once: the first pair's sides (the original processes or fresh ones)
   * run the verified call of step 12, taking the GPU's lock in turn, and each host's check of its own code (protocol
   * step 13, once it has let go of the lock) runs beside the others' work. The other pairs' calls were checked against
   * the reference at random during their rounds, their first batch always (step 8a), as in any bench; their verified
   * calls after timing were two of a case's six, and a process cannot tell which pair it is in until its side ends.
   * `keep`: their outcomes are the case's (a pair left out before its first round has none to give).
   */
  const end = async (closed: readonly number[], stopReason: StopReason, keep = true) => {
    const ending = performance.now()
    const closing = closed.flatMap((pair) => opened[pair]!.map((name) => ({ name, run: pairs[pair]![name].pairEnd(stopReason, plans[name], pair === 0) })))
    for (const pair of closed) opened[pair] = []
    const runs = await Promise.all(closing.map(({ run }) => run))
    await Promise.all(closed.map(freeRegion))
    phases.push(underOneLock(runs.map((run) => run.phases), performance.now() - ending))
    if (keep) closing.forEach(({ name }, i) => ended[name].push(runs[i]!.outcome))
  }

  // Every side's host starts at once (a new solution ends the host of the last one and starts a fresh one): one at a
  // time, four hosts took 1.4–2.2 s a solution on an H100. The case then opens on them one at a time.
  const starting = performance.now()
  const starts = await Promise.all(pairs.flatMap((pair) => [pair.base.prepare(base), pair.head.prepare(head)]))
  phases.push(sideBySide(starts, performance.now() - starting))
  /** The pairs the blocks rotate over: those that opened on both sides. */
  const used: number[] = []
  for (let pair = 0; pair < pairs.length; pair++) {
    // Only the first pair's processes run the verified call of step 4: the others load the same libraries, and their
    // priming call (step 7, the case's first batch) is checked against the reference all the same. On an H100, the
    // verified calls of every process were an eighth of a paired run of the example suite (2026-11-28).
    const started = await openPair(pair, pair === 0)
    opened[pair] = (['base', 'head'] as const).filter((name) => started[name])
    if (started.base && started.head) {
      used.push(pair)
      continue
    }
    const short = (['base', 'head'] as const).find((name) => failed[name]?.status === 'error' && failed[name].errorName === 'OutOfMemory')
    if (pair > 0 && short) {
      delete failed[short]
      await end([pair], 'paired-limit', false)
    }
    break
  }

  const rounds: PairedRounds = { base: [], head: [], block: [], calls: 1, perSide: 2, dropped: 0, pairs: used.length, sharedPlaces: used.every((pair) => shared[pair] !== undefined) }
  let stopReason: StopReason = 'paired-limit'
  const start = performance.now()
  /** `count` rounds on one side of `pair`, after a move when `place` is given; undefined once a side failed. */
  const roundsOn = async (pair: number, name: SideName, count: number, place?: PairPlace): Promise<PairRound[] | undefined> => {
    const step = { rounds: count, count: rounds.calls, ...(place !== undefined && { place }) }
    return (await onSides<PairRoundsOutcome>(pair, [name], (host) => host.pairRounds(step, plans[name])))[name]?.rounds
  }
  const running = () => used.length > 0 && Object.keys(failed).length === 0
  if (running()) {
    // The sizing round: one call per side, to size the rounds; not used.
    const baseRound = await roundsOn(used[0]!, 'base', 1)
    const headRound = baseRound && (await roundsOn(used[0]!, 'head', 1))
    if (baseRound && headRound) {
      rounds.calls = roundCalls(Math.max(baseRound[0]!.wallMs, headRound[0]!.wallMs), settings.roundMs)
      rounds.perSide = roundsPerSide([baseRound[0]!, headRound[0]!])
    }
  }
  /**
   * One block on `pair`, recorded as block `label`: the side that goes first moves (when `move`) and runs a round, the
   * other moves and runs its rounds, the first runs its second. Each side's first round comes right after its own move
   * and priming call, and with two rounds a side a drift within the block falls on both sides alike (with one, on the
   * side that goes first in every other block of the pair). False once a side failed.
   */
  const runBlock = async (pair: number, [first, second]: readonly [SideName, SideName], move: boolean, label: number): Promise<boolean> => {
    const places = placesOn(pair)
    const place = () => (move ? places() : undefined)
    const opening = await roundsOn(pair, first, 1, place())
    const middle = opening && (await roundsOn(pair, second, rounds.perSide, place()))
    const closing = middle && (rounds.perSide === 2 ? await roundsOn(pair, first, 1) : [])
    if (!opening || !middle || !closing) return false
    const sides = { [first]: [opening[0]!, ...closing], [second]: middle } as Record<SideName, PairRound[]>
    for (let i = 0; i < rounds.perSide; i++) {
      const [baseRound, headRound] = [sides.base[i]!, sides.head[i]!]
      if (baseRound.samplesMs.length === 0 || headRound.samplesMs.length === 0) rounds.dropped++
      else {
        rounds.base.push(summarize(baseRound.samplesMs).median)
        rounds.head.push(summarize(headRound.samplesMs).median)
        rounds.block.push(label)
      }
    }
    return true
  }
  for (let block = 0; running(); block++) {
    // A pair's first block stands where it opened; each later one at a new place.
    if (!(await runBlock(used[block % used.length]!, blockOrder(block, used.length), block >= used.length, block))) break
    if (decidedEnough(rounds, settings)) {
      stopReason = 'paired-interval'
      break
    }
    // The time limit never ends the rounds before they can give an interval: a 0.4 s kernel fitted two blocks into
    // 3 s, and no change however large could be judged.
    if (performance.now() - start >= settings.maxTimeMs && new Set(rounds.block).size >= leastBlocks(used.length)) break
  }

  // A change must repeat on processes that have not timed the case: the first pair's sides close, its hosts make way
  // for fresh ones, and the case opens on them until their blocks confirm the change, or for as many blocks as a pair
  // ran (at least an interval's worth) and until the case is decided (freshPairDone), or the time limit. Their blocks
  // are numbered as those of one more pair (confirmingBlocks), and the verdict asks them alone (judgePairedRounds).
  if (running() && readsAChange(rounds, settings)) {
    const renewed = used[0]!
    await end([renewed], stopReason)
    // A side whose last verification failed has failed the case: nothing is left to confirm.
    const closedWell = [...ended.base, ...ended.head].every((outcome) => outcome.status === 'ok')
    const renewing = performance.now()
    const starts = closedWell ? await Promise.all([pairs[renewed]!.base.renew(base), pairs[renewed]!.head.renew(head)]) : []
    phases.push(sideBySide(starts, performance.now() - renewing))
    const started = closedWell ? await openPair(renewed, false) : {}
    rounds.sharedPlaces &&= shared[renewed] !== undefined
    opened[renewed] = (['base', 'head'] as const).filter((name) => started[name])
    if (started.base && started.head) {
      const fresh = confirmingBlocks(rounds.block, used.length)
      Object.assign(rounds, { block: fresh.renumbered, pairs: used.length + 1, freshPair: used.length })
      const confirming = performance.now()
      for (let j = 0; running(); j++) {
        if (!(await runBlock(renewed, blockOrder(j, 1), j > 0, fresh.label(j)))) break
        if (freshPairDone(rounds, j + 1, fresh.count, settings)) break
        if (j + 1 >= MIN_INTERVAL_BLOCKS && performance.now() - confirming >= settings.maxTimeMs) break
      }
    }
  }

  // A side that failed has closed itself; every other closes, the first pair's after one more verified call.
  await end([...pairs.keys()], stopReason)
  const notRun = (other: SideName): CaseOutcome => ({ status: 'error', errorName: 'NotRun', message: `the ${other} side of the paired case did not open (${failureText(failed[other])})` })
  const outcome = (name: SideName, other: SideName): CaseOutcome => failed[name] ?? (ended[name].length > 0 ? mergeSideOutcomes(ended[name]) : notRun(other))
  const baseOutcome = outcome('base', 'head')
  const headOutcome = outcome('head', 'base')
  // A head that never opened (the base failed first) is NotRun already: only one that ran beside the base is ok here.
  const run: PairedRun = {
    base: baseOutcome,
    head: baseOutcome.status !== 'ok' && headOutcome.status === 'ok' ? besideFailure(baseOutcome) : headOutcome,
    phases: sumPhases(phases),
  }
  const complete = run.base.status === 'ok' && run.head.status === 'ok' && Object.keys(failed).length === 0
  if (!rounds.sharedPlaces && unsharedReason !== undefined) rounds.unsharedReason = unsharedReason
  return complete ? { ...run, rounds } : run
}
