// A timed case's buffers at one place in memory, and moving them (docs/protocol.md, "Places"). Where a buffer sits
// changes a kernel's time by up to a few percent, fixed for as long as the buffers live: a case timed at one place
// reads whichever place it got, a step from one run to the next that no sample's spread shows. So a case is timed at
// several places, each behind a spacer of random size (src/shared/places.ts), and its samples are pooled; a paired
// A/B side moves between its blocks of rounds the same way. A move repeats what belongs to a place (buffers, spacer,
// cover, a graph, and the priming call: new memory's first use is slow), not what belongs to the solution (its
// verification, warm-up and probe call).
import * as cuda from '../../native/cuda.js'
import type { DevicePtr } from '../../native/cuda.js'
import type { CasePlan, TimingResult } from '../../shared/messages.js'
import type { DeviceSession } from './device-session.js'
import { startCase, type OpeningSteps, type StartedCase } from './start-case.js'
import { timedIterations, type TimedIterations } from './timed-iteration.js'

type Solution = (...args: unknown[]) => unknown

/** What the timers and checks counted, over every place the case was timed at. */
export type PlacedCounts = Pick<TimingResult, 'callsPerSample' | 'checkedCalls' | 'paddingFallback' | 'streamAudit' | 'auditedCalls' | 'hostShare' | 'places'>

/**
 * Where a place is: the buffers allocated afresh behind a spacer of `spacerBytes`, or the timed calls' buffers at
 * `sharedAt`, in a region that the other side of a paired case opens at the same offset (docs/ci-gate.md, "Shared
 * places").
 */
export type Where = { spacerBytes: number } | { sharedAt: DevicePtr }

/** The case's buffers at one place, behind a spacer. */
interface Place {
  spacer?: DevicePtr
  started: StartedCase
}

/** Steps 1 to 5 (4 and 5 as `opening` says) at `where`; the spacer is freed again when a step throws. */
function place(session: DeviceSession, plan: CasePlan, solution: Solution, where: Where, opening: OpeningSteps): Place {
  // The flush buffer and padding matrices come again after the spacer and the case's buffers (at their next use):
  // where they sit against the case's buffers would otherwise be fixed for the life of the process.
  session.movePreWindowBuffers()
  const spacer = 'spacerBytes' in where && where.spacerBytes > 0 ? cuda.malloc(where.spacerBytes) : undefined
  try {
    return { spacer, started: startCase(session, plan, solution, true, opening, 'sharedAt' in where ? where.sharedAt : undefined) }
  } catch (error) {
    freeQuietly(spacer)
    throw error
  }
}

/** The buffers and spacer of `place` freed, quietly: after a fault, freeing fails too, and the fault is what is reported. */
function leave({ spacer, started }: Place): void {
  started.free()
  freeQuietly(spacer)
}

function freeQuietly(spacer: DevicePtr | undefined): void {
  try {
    if (spacer !== undefined) cuda.free(spacer)
  } catch {
    // See leave().
  }
}

/**
 * Protocol step 7: the priming batch, one call, untimed; returns its wall time less its check. `checkClock`: step 10d's
 * held kernel follows the call, judged with it (see move()).
 */
function prime(iterations: TimedIterations, checkClock = false): number {
  const start = performance.now()
  const checkingBefore = iterations.checkingMs
  iterations.enqueue(1, checkClock)
  iterations.collect()
  return performance.now() - start - (iterations.checkingMs - checkingBefore)
}

/** Step 11, quietly (see leave()). */
function disposeQuietly(iterations: TimedIterations): void {
  try {
    iterations.dispose()
  } catch {
    // See leave().
  }
}

export class PlacedCase {
  private places = 1
  /** False between leaving a place and standing at the next: what the current place held is freed already. */
  private standing = true

  private constructor(
    private readonly session: DeviceSession,
    private readonly plan: CasePlan,
    private readonly solution: Solution,
    private current: Place,
    /** The case's timed iterations (steps 8 to 10), at whichever place it stands. */
    readonly iterations: TimedIterations,
    /** The priming call (step 7): its wall time less its check, which sizes the first batch. */
    readonly primingMs: number,
  ) {}

  /**
   * Steps 1 to 7 at a first place `where`: verified and warmed up (unless `opening` says neither), the timer set up and
   * its priming batch run. Throws WrongAnswer when the first verification fails, with everything freed.
   */
  static open(session: DeviceSession, plan: CasePlan, solution: Solution, where: Where, opening: OpeningSteps = 'verify and warm up'): PlacedCase {
    const first = place(session, plan, solution, where, opening)
    let iterations: TimedIterations | undefined
    try {
      iterations = timedIterations(first.started.timed, !plan.options.skipVerification) // 6
      return new PlacedCase(session, plan, solution, first, iterations, prime(iterations))
    } catch (error) {
      if (iterations) disposeQuietly(iterations)
      leave(first)
      throw error
    }
  }

  /** The current place's case: its buffers, for a verified call (step 12) or the counters (12a). */
  get started(): StartedCase {
    return this.current.started
  }

  /**
   * Step 10c: the buffers freed and set up again at `where` (steps 1 to 3), the timer's and checks' parts that belong
   * to a place set up there, and the priming batch run (7) with the check of the place left (10d). The checks' and the
   * audit's schedules go on as they were: a new place forces no check, whose reference would cost a large case more
   * than the place.
   */
  move(where: Where): void {
    this.session.phases.during('moves', () => {
      this.iterations.leavePlace()
      leave(this.current)
      // Until the next place stands there is nothing to free: a place that fails to stand frees its own part.
      this.standing = false
      this.current = place(this.session, this.plan, this.solution, where, 'none')
      this.standing = true
      this.iterations.enterPlace(this.current.started.timed)
      // Step 7 again, for every kernel. Without it, on an H100 the base side of a paired A/A read 2–4% slower than
      // the head on four kernels of 0.1–0.5 ms over 256–768 MiB: its first round came right after the other side's
      // move; and on an H200, kernels of 1.6–280 ms read 6× their time in about half of the first rounds after a
      // move. Step 10d for the place left comes in the same batch: checked on its own, it took a second read of
      // CUPTI's records, about 1 ms of each move.
      prime(this.iterations, true)
    })
    this.places++
  }

  /** Step 11, returning what all places counted; the buffers stay for steps 12 and 12a. */
  endTiming(): PlacedCounts {
    this.session.phases.during('checks', () => this.iterations.checkClock()) // 10d
    const counts = this.iterations.counts()
    this.iterations.dispose()
    return { ...counts, places: this.places }
  }

  /** Frees the buffers after endTiming(). */
  free(): void {
    if (this.standing) leave(this.current)
  }

  /** Closes the case after an error: the timer off and everything freed, quietly (the error is what is reported). */
  abandon(): void {
    disposeQuietly(this.iterations)
    this.free()
  }
}
