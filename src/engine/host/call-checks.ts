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
  /** When a call was last checked: moving the buffers (placement.ts) forces no check, the schedule goes on. */
  private schedule = { checkedAny: false, lastCheckEnd: performance.now(), lastCheckMs: 0 }

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
   * time on average (a slow reference must not starve the timing), and never predictably.
   */
  pick(count: number): number {
    this.picked = undefined
    const { checkedAny, lastCheckEnd, lastCheckMs } = this.schedule
    const chance = checkedAny ? (CHECK_SHARE * (performance.now() - lastCheckEnd)) / Math.max(lastCheckMs, 1e-3) : 1
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
    if (this.picked === undefined) return
    const start = performance.now()
    checkCall(this.session, this.plan, this.buffers, this.picked, 'saved', PICKED_CALL)
    this.checked++
    const end = performance.now()
    this.schedule = { checkedAny: true, lastCheckEnd: end, lastCheckMs: end - start }
    this.spentMs += end - start
  }
}
