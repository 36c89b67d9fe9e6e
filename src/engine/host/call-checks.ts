// What happens around every timed call besides timing it (docs/protocol.md): the checked call picked in each batch
// (steps 8a, 8g, 9d) and the state check after every call (8h).
import { randomInt } from 'node:crypto'
import * as cuda from '../../native/cuda.js'
import type { CasePlan } from '../../shared/messages.js'
import { bytesOfBuffer, type CaseBuffers } from './buffers.js'
import type { DeviceSession } from './device-session.js'
import { checkCall, digestInputs } from './verify.js'

/** On average, checking picked calls may take this share of the timing loop's wall time. */
const CHECK_SHARE = 0.2
const PICKED_CALL = 'in a timed call picked at random (its inputs were new to the solution)'

/**
 * One call picked at random, in batches drawn at random, has its outputs copied aside and its inputs digested right
 * after its window; the batch's end checks them against the reference on the same draw of inputs. The copy comes
 * after the call returns, so no call can tell whether it is the one checked. And no call may change the device state
 * the harness measures in (device-state.ts), checked absolutely after every call: the state a call finds is the
 * harness's, whatever ran before it.
 */
export class CallChecks {
  /** Timed calls whose outputs and inputs were checked so far: the result's `checkedCalls`. */
  checked = 0
  /** Wall time spent checking picked calls so far: not time the batches took. */
  spentMs = 0
  private picked?: number
  /** When the current batch started (pick). */
  private batchStart = 0
  /**
   * The wall time of the case's batches so far, checks left out: the clock of the schedule. Not the wall clock: a
   * paired side waits while the other side's process times, and that time is no batch of its own.
   */
  private batchesMs = 0
  /** The batches' time at the last check, and what it cost: moving the buffers (placement.ts) forces no check. */
  private schedule = { checkedAny: false, batchesMsAtCheck: 0, lastCheckMs: 0 }

  /** `enabled` is false when verification is skipped. */
  constructor(
    private readonly session: DeviceSession,
    private readonly plan: CasePlan,
    private buffers: CaseBuffers,
    private readonly enabled: boolean,
  ) {}

  /** Protocol step 10c: the case's buffers at their new place. */
  moveTo(buffers: CaseBuffers): void {
    this.buffers = buffers
  }

  /**
   * Protocol step 8a: a new batch of `count` calls: returns the index of the one to check, or -1 for none. The case's
   * first batch is always checked; later ones at random, often enough that checking takes about CHECK_SHARE of the
   * batches' time on average (a slow reference must not starve the timing), and never predictably.
   */
  pick(count: number): number {
    this.picked = undefined
    this.batchStart = performance.now()
    const { checkedAny, batchesMsAtCheck, lastCheckMs } = this.schedule
    const chance = checkedAny ? (CHECK_SHARE * (this.batchesMs - batchesMsAtCheck)) / Math.max(lastCheckMs, 1e-3) : 1
    return Math.random() < chance ? randomInt(count) : -1
  }

  /**
   * Protocol steps 8g (the picked call: its outputs copied aside, its inputs digested) and 8h (the state check), after
   * a call's window has closed.
   */
  afterCall(draw: number, isPicked: boolean): void {
    if (isPicked && this.enabled) {
      for (const { got, saved } of this.buffers.outputs) cuda.memcpyAsync(saved.ptr, got.ptr, bytesOfBuffer(got))
      digestInputs(this.session, this.buffers, 1)
      this.picked = draw
    }
    this.session.checkState('solution()', 'after a timed call')
  }

  /** Protocol step 9d, after the batch has finished on the GPU: the picked call checked against the reference. */
  checkPicked(): void {
    const start = performance.now()
    this.batchesMs += start - this.batchStart
    if (this.picked === undefined) return
    checkCall(this.session, this.plan, this.buffers, this.picked, 'saved', PICKED_CALL)
    this.checked++
    const end = performance.now()
    this.schedule = { checkedAny: true, batchesMsAtCheck: this.batchesMs, lastCheckMs: end - start }
    this.spentMs += end - start
  }
}
