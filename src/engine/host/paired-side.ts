// One side of a paired A/B case in its device host (docs/ci-gate.md, "Paired A/B"). The worker opens the case on both
// sides' hosts, then asks each in turn for a round of timed calls, so that the two solutions alternate on the GPU in
// rounds short enough that clock steps and drift hit both alike. Each side is a case of the ordinary protocol
// (docs/protocol.md) cut at the batch: steps 1 to 7 when it opens, steps 8 to 10a per round, 11 and 12 when it ends.
// Between blocks of rounds the worker has the side move its buffers (placement.ts): where a buffer sits in memory
// changes a memory-bound kernel's time by a few percent, and only buffers at several places let the interval see that.
// The host holds the GPU lock only while it works on a request (host.ts), so between its rounds the other side's host
// times on the same GPU, in a process and a CUDA context of its own.
import * as cuda from '../../native/cuda.js'
import { dropThrottled } from '../../shared/clock-filter.js'
import type { CaseOutcome, CasePlan, PairPlace, PairRound } from '../../shared/messages.js'
import type { StopReason } from '../../shared/stopping.js'
import type { DeviceSession } from './device-session.js'
import { PlacedCase, type Where } from './placement.js'

type Solution = (...args: unknown[]) => unknown

/**
 * The shared regions a side has opened (CUDA IPC), each once, until the side ends. The region host owns them, and the
 * worker has one freed only after every side that opened it has ended: a side never frees memory the other may use.
 */
class OpenedRegions {
  private readonly opened = new Map<string, cuda.DevicePtr>()

  where(place: PairPlace): Where {
    if ('spacerBytes' in place) return place
    let base = this.opened.get(place.region)
    if (base === undefined) {
      base = cuda.openIpc(place.region)
      this.opened.set(place.region, base)
    }
    return { sharedAt: base + BigInt(place.offsetBytes) }
  }

  /** Unmaps every region, quietly: after a fault it fails too, and the fault is what is reported. */
  close(): void {
    for (const base of this.opened.values()) {
      try {
        cuda.closeIpc(base)
      } catch {
        // See above.
      }
    }
    this.opened.clear()
  }
}

export class PairedSide {
  private readonly kept: number[] = []
  private clockSum = 0
  private clockRounds = 0
  private droppedThrottled = 0
  private droppedInterference = 0
  private readonly opened = performance.now()

  private constructor(
    private readonly session: DeviceSession,
    private readonly plan: CasePlan,
    private readonly placed: PlacedCase,
    private readonly regions: OpenedRegions,
  ) {}

  /**
   * Steps 1 to 7 at `place`: verified and warmed up (neither unless `verify`: see OpeningSteps), the timer set up and
   * its priming batch run. Throws WrongAnswer like runCase.
   */
  static open(session: DeviceSession, plan: CasePlan, solution: Solution, place: PairPlace, verify: boolean): PairedSide {
    const regions = new OpenedRegions()
    try {
      return new PairedSide(session, plan, PlacedCase.open(session, plan, solution, regions.where(place), verify ? 'verify and warm up' : 'none'), regions)
    } catch (error) {
      regions.close()
      throw error
    }
  }

  /**
   * Moves the buffers to `place`, the timer's parts that belong to a place set up there (step 10c; checks go on at
   * random, on the case's schedule).
   */
  move(place: PairPlace): void {
    this.placed.move(this.regions.where(place))
  }

  /**
   * Steps 8 to 10a for one round of `count` calls: its kept samples, none when its clock was throttled (the worker then
   * drops the round on both sides), and how long the round took without the output checks (the worker sizes rounds by it).
   */
  round(count: number): PairRound {
    const { session } = this
    const { iterations } = this.placed
    const start = performance.now()
    const checkingBefore = iterations.checkingMs
    iterations.enqueue(count) // 8
    const clock = session.smClockMHz() // 9a
    const { kept, interference } = iterations.collect() // 9b–9g
    const wallMs = performance.now() - start - (iterations.checkingMs - checkingBefore)
    const filtered = dropThrottled(
      kept.map((ms) => ({ ms, smClockMHz: clock })),
      session.maxSmClockMHz,
      this.plan.options.throttleFraction,
    ) // 10a
    this.droppedInterference += interference
    this.droppedThrottled += filtered.dropped
    this.kept.push(...filtered.kept)
    if (filtered.kept.length > 0 && clock > 0) {
      this.clockSum += clock
      this.clockRounds++
    }
    return { samplesMs: filtered.kept, smClockMHz: clock, interference, wallMs }
  }

  /** Steps 11 and 12: the timer off, one more verified call on fresh inputs when `verify`, the buffers freed. */
  end(stopReason: StopReason, verify: boolean): CaseOutcome {
    try {
      const counts = this.placed.endTiming() // 11
      const outputs = verify ? this.placed.started.verify('after timing (fresh inputs)') : [] // 12
      const timing = {
        samplesMs: this.kept,
        droppedThrottled: this.droppedThrottled,
        droppedInterference: this.droppedInterference,
        meanSmClockMHz: this.clockRounds > 0 ? this.clockSum / this.clockRounds : NaN,
        maxSmClockMHz: this.session.maxSmClockMHz,
        stopReason,
        wallMs: performance.now() - this.opened,
        ...counts,
      }
      return { status: 'ok', outputs, timing, verificationSkipped: this.plan.options.skipVerification }
    } finally {
      this.placed.free()
      this.regions.close()
    }
  }

  /** Closes the case after an error: the timer off and everything freed, quietly (the error is what is reported). */
  abandon(): void {
    this.placed.abandon()
    this.regions.close()
  }
}
