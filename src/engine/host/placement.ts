// A timed case's buffers at one place in memory, and moving them (docs/protocol.md, "Places"). Where a buffer sits
// changes a kernel's time by up to a few percent, fixed for as long as the buffers live: a case timed at one place
// reads whichever place it got, a step from one run to the next that no sample's spread shows. So a case is timed at
// several places, each behind a spacer of random size (src/shared/places.ts), and its samples are pooled; a paired
// A/B side moves between its blocks of rounds the same way.
import * as cuda from '../../native/cuda.js'
import type { DevicePtr } from '../../native/cuda.js'
import type { CasePlan, TimingResult } from '../../shared/messages.js'
import { newCheckSchedule, type CheckSchedule } from './call-checks.js'
import type { DeviceSession } from './device-session.js'
import { startCase, type StartedCase } from './start-case.js'
import { timedIterations, type TimedIterations } from './timed-iteration.js'

type Solution = (...args: unknown[]) => unknown

/** What the timers and checks counted, over every place the case was timed at. */
export type PlacedCounts = Pick<TimingResult, 'callsPerSample' | 'checkedCalls' | 'paddingFallback' | 'streamAudit' | 'auditedCalls' | 'places'>

/** The case's buffers at one place, with the pre-window work's: allocated after a spacer, the timer set up and primed. */
interface Place {
  spacer?: DevicePtr
  started: StartedCase
  iterations: TimedIterations
  /** Wall time of the priming call, less its check: what sizes the first batch. */
  primingMs: number
}

/**
 * Steps 1 to 7 after a spacer of `spacerBytes`; everything allocated is freed again when a step throws. `moving`: steps
 * 4 and 5 are left out (the case was verified and warmed up at its first place), and calls are checked on the case's
 * `schedule` (step 8a): a new place forces no check, whose reference would cost a large case more than the place.
 */
function place(session: DeviceSession, plan: CasePlan, solution: Solution, spacerBytes: number, schedule: CheckSchedule, moving: boolean): Place {
  // The flush buffer and padding matrices come again after the spacer and the case's buffers (at step 7's first use):
  // where they sit against the case's buffers would otherwise be fixed for the life of the process.
  session.movePreWindowBuffers()
  const spacer = spacerBytes > 0 ? cuda.malloc(spacerBytes) : undefined
  let started: StartedCase | undefined
  let iterations: TimedIterations | undefined
  try {
    started = startCase(session, plan, solution, true, moving)
    iterations = timedIterations(started.timed, !plan.options.skipVerification, schedule) // 6
    const start = performance.now()
    iterations.enqueue(1) // 7: the priming batch, untimed
    iterations.collect()
    return { spacer, started, iterations, primingMs: performance.now() - start - iterations.checkingMs }
  } catch (error) {
    leave({ spacer, started, iterations })
    throw error
  }
}

/** Step 11 and the buffers freed, quietly: after a fault, tearing down fails too, and the fault is what is reported. */
function leave({ spacer, started, iterations }: Partial<Place>): void {
  try {
    iterations?.dispose()
  } catch {
    // See above.
  }
  started?.free()
  try {
    if (spacer !== undefined) cuda.free(spacer)
  } catch {
    // See above.
  }
}

export class PlacedCase {
  /** Calls counted by the timers and checks of the places before the current one. */
  private earlier = { checkedCalls: 0, auditedCalls: 0 }
  private places = 1
  /** False between leaving a place and standing at the next: what the current place held is freed already. */
  private standing = true

  private constructor(
    private readonly session: DeviceSession,
    private readonly plan: CasePlan,
    private readonly solution: Solution,
    private readonly schedule: CheckSchedule,
    private current: Place,
  ) {}

  /**
   * Steps 1 to 7 at a first place behind a spacer of `spacerBytes`: verified, warmed up, the timer set up and its
   * priming batch run. Throws WrongAnswer when the first verification fails, with everything freed.
   */
  static open(session: DeviceSession, plan: CasePlan, solution: Solution, spacerBytes: number): PlacedCase {
    const schedule = newCheckSchedule()
    return new PlacedCase(session, plan, solution, schedule, place(session, plan, solution, spacerBytes, schedule, false))
  }

  /** The current place's timed iterations (steps 8 to 10). */
  get iterations(): TimedIterations {
    return this.current.iterations
  }

  /** The current place's priming call (step 7): its wall time less its check. */
  get primingMs(): number {
    return this.current.primingMs
  }

  /** The current place's case: its buffers, for a verified call (step 12) or the counters (12a). */
  get started(): StartedCase {
    return this.current.started
  }

  /** Moves the buffers: step 11 and freed, then steps 1 to 7 again after a spacer of `spacerBytes`, without 4 and 5. */
  move(spacerBytes: number): void {
    const counts = this.current.iterations.counts()
    this.earlier = { checkedCalls: this.earlier.checkedCalls + counts.checkedCalls, auditedCalls: this.earlier.auditedCalls + (counts.auditedCalls ?? 0) }
    leave(this.current)
    // Until the next place stands there is nothing to free: a place that fails to stand frees its own part.
    this.standing = false
    this.current = place(this.session, this.plan, this.solution, spacerBytes, this.schedule, true)
    this.standing = true
    this.places++
  }

  /** Step 11 at the current place, returning what all places counted; the buffers stay for steps 12 and 12a. */
  endTiming(): PlacedCounts {
    const counts = this.current.iterations.counts()
    this.current.iterations.dispose()
    return {
      ...counts,
      checkedCalls: counts.checkedCalls + this.earlier.checkedCalls,
      ...(counts.auditedCalls !== undefined && { auditedCalls: counts.auditedCalls + this.earlier.auditedCalls }),
      places: this.places,
    }
  }

  /** Frees the buffers after endTiming(). */
  free(): void {
    if (this.standing) leave({ ...this.current, iterations: undefined })
  }

  /** Closes the case after an error: the timer off and everything freed, quietly (the error is what is reported). */
  abandon(): void {
    if (this.standing) leave(this.current)
  }
}
