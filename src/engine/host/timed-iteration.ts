// The timed iterations of one case, in the order of docs/protocol.md's steps (cited by number): the timer set up for
// the timing mode (step 6), then each batch queued (8) and collected (9). The mode's part of each step is in
// timers.ts, the work in front of a window in pre-window.ts, the checked call and the state checks in call-checks.ts,
// the stream audit in stream-audit.ts. measure.ts runs the priming batch and the batches until the stopping rule says
// enough (7, 9a, 10).
import * as cuda from '../../native/cuda.js'
import type { TimingResult } from '../../shared/messages.js'
import type { ScreenedBatch } from '../../shared/sample-screen.js'
import { CallChecks } from './call-checks.js'
import type { TimedCase } from './timed-case.js'
import { TamperingDetected } from './code-integrity.js'
import { callTimer, type CallTimer, type TimerCounts } from './timers.js'

/**
 * The second clock's held kernel (checkClock): long next to any timer's offset and resolution (events 0.5 µs,
 * %globaltimer's step 1 µs at most), short next to a place's batches.
 */
const CLOCK_CHECK_NS = 100_000
/** How much shorter than the held time a reading may be: the held kernel ends within one %globaltimer step of it. */
const CLOCK_CHECK_SLACK = 0.03

/** Protocol step 6. `checkOutputs` is false when verification is skipped. */
export function timedIterations(timed: TimedCase, checkOutputs: boolean): TimedIterations {
  const checks = new CallChecks(timed.session, timed.plan, timed.buffers, checkOutputs)
  return new TimedIterations(timed.nextDraw, checks, callTimer(timed))
}

export class TimedIterations {
  /** Whether the batch being queued or collected holds step 10d's kernel. */
  private clockQueued = false

  constructor(
    private readonly nextDraw: () => number,
    private readonly checks: CallChecks,
    private readonly timer: CallTimer,
  ) {}

  /** Wall time spent checking picked calls so far: not time the batches took. */
  get checkingMs(): number {
    return this.checks.spentMs
  }

  /** What the result counts besides the samples. */
  counts(): TimerCounts & Pick<TimingResult, 'checkedCalls'> {
    return { ...this.timer.counts(), checkedCalls: this.checks.checked }
  }

  /**
   * Protocol step 8: queues `count` iterations without waiting for the GPU. `checkClock`: step 10d's held kernel
   * follows them, read and judged with the batch (collect).
   */
  enqueue(count: number, checkClock = false): void {
    const pick = this.checks.pick(count) // 8a
    this.timer.startBatch(count) // 8a
    try {
      for (let i = 0; i < count; i++) {
        const draw = this.nextDraw()
        this.timer.timeCall(draw, () => this.checks.afterCall(draw, i === pick)) // 8b–8f, then 8g, 8h
      }
    } finally {
      this.timer.endBatch() // 8i
    }
    if (checkClock) {
      this.timer.queueHeld(CLOCK_CHECK_NS, this.nextDraw())
      this.clockQueued = true
    }
  }

  /**
   * Protocol steps 9b–9g: waits for the batch, audits it, checks its picked call, and returns its trusted samples (ms
   * per call). Throws TamperingDetected when the batch held step 10d's kernel and the timer read it short.
   */
  collect(): ScreenedBatch {
    cuda.synchronize() // 9b
    const read = this.timer.read() // 9c
    if (this.clockQueued) {
      this.clockQueued = false
      this.judgeClock(this.timer.heldMs(read)) // 10d
    }
    this.checks.checkPicked() // 9d
    return this.timer.samples(read) // 9e–9g
  }

  /** Protocol step 10d on its own, after the case's last batch was read (checkClock in enqueue puts it in a batch). */
  checkClock(): void {
    this.judgeClock(this.timer.timeHeld(CLOCK_CHECK_NS, this.nextDraw()))
  }

  /**
   * Protocol step 10d: the timer's reading of a harness kernel that holds the GPU for CLOCK_CHECK_NS of the GPU's own
   * clock (%globaltimer) must be at least that long. Nothing in the process can rewrite that clock, so a shorter reading
   * means the timer's readings were changed (a swapped or patched timer function, its results edited): no sample of the
   * case can be trusted, and the host that ran it is not the harness's any more.
   */
  private judgeClock(readMs: number): void {
    const heldMs = CLOCK_CHECK_NS / 1e6
    if (readMs >= heldMs * (1 - CLOCK_CHECK_SLACK)) return
    throw new TamperingDetected(
      `the timer read ${(readMs * 1000).toFixed(1)} µs for a harness kernel that held the GPU for ${heldMs * 1000} µs by the ` +
        "GPU's own clock (%globaltimer): something in this process changed the timer's readings (a timer function " +
        "swapped, patched or hooked, or its results edited), so none of this case's samples can be trusted",
    )
  }

  /** Protocol step 10c, before the buffers are freed: lets go of what holds them. */
  leavePlace(): void {
    this.timer.leavePlace()
  }

  /** Protocol step 10c, at the buffers' new place: timer and checks on the new buffers. */
  enterPlace(timed: TimedCase): void {
    this.checks.moveTo(timed.buffers)
    this.timer.enterPlace(timed)
  }

  /** Protocol step 11, also after an error. */
  dispose(): void {
    this.timer.dispose()
  }
}
