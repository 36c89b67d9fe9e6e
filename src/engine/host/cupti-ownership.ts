// The harness owns CUPTI's callback API in its device host (docs/defences.md, "CUPTI belongs to the harness"): CUPTI
// takes one callback subscriber per process, and the host takes it before any solution loads. Solution code that
// subscribes then gets CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, so it cannot hook the harness's own CUDA calls
// (queue its work right after the inputs are filled, before the window; rewrite what cudaEventElapsedTime returns).
// What a solution can still do is take the subscriber away (cuptiUnsubscribe on a handle it found, cuptiFinalize):
// the check after loading and after every case sees that, and refuses the solution.
import type { Cupti } from '../../native/cupti.js'
import { TamperingDetected } from './code-integrity.js'

export class CuptiOwnership {
  /**
   * What the harness holds: the shim, the name CUPTI reports for the harness's subscriber to a second one (what a
   * probe must see), and whether it is let go of for the range profiler; undefined when it holds nothing.
   */
  private holding?: { cupti: Cupti; as: string; released: boolean }
  /** 'held by the harness', or 'not held: <why>' (CUPTI missing, another client holds it). */
  readonly description: string

  /** `cupti`: the shim, or why it cannot load. */
  constructor(cupti: Cupti | string) {
    this.description = typeof cupti === 'string' ? `not held: ${cupti}` : this.take(cupti)
  }

  /** Takes the subscriber at the host's start; what the host holds (a CUPTI that fails here must not stop the host). */
  private take(cupti: Cupti): string {
    try {
      const other = cupti.claim()
      if (other !== undefined) return `not held: ${other} holds CUPTI's subscriber`
      const as = cupti.subscriber()
      if (as === undefined) {
        // This CUPTI does not refuse a second subscriber: holding one protects nothing, and a probe cannot check it.
        cupti.release()
        return 'not held: this CUPTI takes more than one subscriber'
      }
      this.holding = { cupti, as, released: false }
      return 'held by the harness'
    } catch (error) {
      return `not held: ${(error as Error).message}`
    }
  }

  /**
   * Lets go while the range profiler runs (`profiler` timing, the counters' pass): reclaim() takes it back, and finds
   * a subscriber that came in between.
   */
  release(): void {
    if (!this.holding || this.holding.released) return
    this.holding.cupti.release()
    this.holding.released = true
  }

  /** Takes back what release() let go of; `who` ran in between. */
  reclaim(who: string): void {
    if (!this.holding?.released) return
    this.holding.released = false
    const other = this.holding.cupti.claim()
    if (other === undefined) return
    this.holding = undefined
    throw new TamperingDetected(`${who} subscribed to CUPTI's callbacks while the range profiler ran (CUPTI's subscriber is now ${other}). ${OWNED}`)
  }

  /** `work` with the subscriber let go of (release, then reclaim, also when `work` throws). */
  whileReleased<T>(who: string, work: () => T): T {
    this.release()
    try {
      return work()
    } finally {
      this.reclaim(who)
    }
  }

  /** Fails the case (and retires the host) when the subscriber the harness holds was taken from it. */
  check(who: string, when: string): void {
    if (!this.holding || this.holding.released) return
    const now = this.holding.cupti.subscriber()
    if (now === this.holding.as) return
    this.holding = undefined
    const what = now === undefined ? 'let go of it (cuptiUnsubscribe or cuptiFinalize)' : `gave it to ${now}`
    throw new TamperingDetected(`${who} took CUPTI's callback subscriber from the harness (found ${when}): CUPTI ${what}. ${OWNED}`)
  }
}

const OWNED =
  'CUPTI belongs to the harness, which times with it; a solution must not subscribe to CUPTI, enable its callbacks or ' +
  'activity kinds, or finalize it'
