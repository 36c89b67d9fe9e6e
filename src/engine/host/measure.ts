// One case, start to finish, inside the device host: the measurement protocol of docs/protocol.md, its steps cited
// by number. runCase runs steps 1 to 12 in order (12a with the `counters` option): 1 to 5 in start-case.ts, 1 to 7 at
// the first place and 10c's moves in placement.ts, time() 8 to 11 (one batch's steps 8 and 9 are in timed-iteration.ts); step 13 is the
// host's, once it has let go of the GPU (host.ts), and step 14, the statistics, is the worker's.
import { CudaError } from '../../native/errors.js'
import type { MeasureOptions } from '../../spec/options.js'
import { TamperingDetected } from './code-integrity.js'
import { countCase } from './counters.js'
import { DeviceStateChanged } from './device-state.js'
import { dropThrottled, type ClockedSample } from '../../shared/clock-filter.js'
import type { DeviceSession } from './device-session.js'
import type { CaseOutcome, CasePlan, TimingResult, VerifiedOutput } from '../../shared/messages.js'
import { placeBatchMs, spacerBytes, timeToMove } from '../../shared/places.js'
import { leastTimingMs, stopReason } from '../../shared/stopping.js'
import { PlacedCase } from './placement.js'
import { startCase } from './start-case.js'
import { IncompleteRecordsError, StrayWorkError } from './stream-audit.js'
import { SpawnedProcessError } from './spawned-processes.js'
import { WrongAnswer } from './verify.js'

/** A batch of timed iterations aims at this much wall time between synchronizations. */
const BATCH_TARGET_MS = 25
const MAX_BATCH = 64

/**
 * Protocol steps 8 to 11 at the places of `placed`, which has run steps 1 to 7 at its first: batches of timed
 * iterations, the SM clock read while each runs, the buffers moved now and then, until the stopping rule says enough;
 * then the timer off.
 */
function time(session: DeviceSession, options: MeasureOptions, placed: PlacedCase): TimingResult {
  // 8: the first batch is sized by the priming call (which its first-time costs only make smaller): batches of a long
  // kernel stay one call, so an audited batch (whose samples are dropped) costs one call, not minIterations.
  let batch = batchSize(placed.primingMs, Math.min(options.minIterations, MAX_BATCH), batchTargetMs(options.minTimeMs))
  const clocked: ClockedSample[] = []
  let droppedInterference = 0
  const start = performance.now()
  let placeStart = start
  for (;;) {
    const { iterations } = placed
    const batchStart = performance.now()
    const checkingBefore = iterations.checkingMs
    iterations.enqueue(batch) // 8
    // 9a: read while the batch runs: the clock the samples are taken at.
    const clock = session.smClockMHz()
    const { kept, interference } = iterations.collect() // 9b–9g
    const batchMs = performance.now() - batchStart - (iterations.checkingMs - checkingBefore)
    droppedInterference += interference
    for (const ms of kept) clocked.push({ ms, smClockMHz: clock })
    const filtered = dropThrottled(clocked, session.maxSmClockMHz, options.throttleFraction) // 10a
    const now = performance.now()
    const elapsed = now - start
    const reason = stopReason(filtered.kept, elapsed, options) // 10b
    if (reason) {
      return {
        samplesMs: filtered.kept,
        droppedThrottled: filtered.dropped,
        droppedInterference,
        meanSmClockMHz: filtered.meanClockMHz,
        maxSmClockMHz: session.maxSmClockMHz,
        stopReason: reason,
        wallMs: elapsed,
        ...placed.endTiming(), // 11
      }
    }
    // 10c: the next place now and then (placement.ts), and the next batch, sized by this one's time.
    const leastMs = leastTimingMs(filtered.kept, elapsed, options)
    if (timeToMove(now - placeStart, elapsed, leastMs, batchMs)) {
      placed.move({ spacerBytes: spacerBytes() })
      placeStart = performance.now()
    }
    const most = Math.min(MAX_BATCH, Math.max(1, options.maxIterations - filtered.kept.length))
    batch = batchSize(batchMs / batch, most, batchTargetMs(leastMs))
  }
}

/** The wall time a batch aims at, for a case that must be timed for `leastMs` at least: at most half a place. */
function batchTargetMs(leastMs: number): number {
  return Math.min(BATCH_TARGET_MS, placeBatchMs(leastMs))
}

/** Iterations that take about `targetMs` (at least one, at most `most`) at `perIterationMs` each. */
function batchSize(perIterationMs: number, most: number, targetMs: number): number {
  return Math.max(1, Math.min(most, Math.round(targetMs / perIterationMs)))
}

/** Errors that mean the CUDA context is gone: the device host must be replaced after reporting them. */
export function contextLost(error: unknown): boolean {
  // CuDriverError (driver-API launches of TypeScript solutions) is a CudaError too.
  return error instanceof CudaError && error.isSticky
}

/**
 * Errors after which the device host exits, under the GPU's lock so that nothing of it overlaps anyone's timing: a lost
 * context runs nothing more; a changed device state or changed code is not the harness's any more (a fresh host starts
 * from the harness's state again); a thread of the solution's own that launches work outside its calls (stray work, or
 * work still running when CUPTI's records were read) may go on launching, and only the end of its process stops it; a
 * process the solution started is killed with the host.
 */
export function hostMustExit(error: unknown): boolean {
  const stillLaunching = error instanceof StrayWorkError || error instanceof IncompleteRecordsError || error instanceof SpawnedProcessError
  return contextLost(error) || error instanceof DeviceStateChanged || error instanceof TamperingDetected || stillLaunching
}

/** A verification that failed, as the outcome that reports it; any other error is thrown on. */
export function wrongAnswerOutcome(error: unknown): { status: 'wrong'; message: string; outputs: VerifiedOutput[] } {
  if (error instanceof WrongAnswer) return { status: 'wrong', message: error.message, outputs: error.outputs }
  throw error
}

/** `solution` is the case's entry point, from session.solution(plan.solution). */
export function runCase(session: DeviceSession, plan: CasePlan, solution: (...args: unknown[]) => unknown): CaseOutcome {
  const options = plan.options
  if (plan.mode !== 'bench' || options.disableTiming) return verifyOnly(session, plan, solution)
  let placed: PlacedCase
  try {
    placed = session.phases.during('timing', () => PlacedCase.open(session, plan, solution, { spacerBytes: spacerBytes() })) // 1–7
  } catch (error) {
    return wrongAnswerOutcome(error)
  }
  let timing: TimingResult
  try {
    timing = session.phases.during('timing', () => time(session, options, placed)) // 8–11
  } catch (error) {
    placed.abandon()
    return wrongAnswerOutcome(error)
  }
  try {
    const outputs = placed.started.verify('after timing (fresh inputs)') // 12
    const counters = options.counters ? session.phases.during('counters', () => countCase(placed.started.timed)) : undefined // 12a
    return { status: 'ok', outputs, timing, verificationSkipped: options.skipVerification, ...(counters && { counters }) }
  } catch (error) {
    return wrongAnswerOutcome(error)
  } finally {
    placed.free()
  }
}

/** Protocol steps 1, 3 and 4 of a case that is not timed (`vitest run`, or disableTiming). */
function verifyOnly(session: DeviceSession, plan: CasePlan, solution: (...args: unknown[]) => unknown): CaseOutcome {
  try {
    const started = startCase(session, plan, solution, false)
    started.free()
    return { status: 'ok', outputs: started.outputs, verificationSkipped: plan.options.skipVerification }
  } catch (error) {
    return wrongAnswerOutcome(error)
  }
}
