// Who holds CUPTI's one callback subscriber in a device host, with a stand-in for the shim that behaves as CUPTI
// documents it (one subscriber; a second subscribe fails and names the first). The real shim runs in the GPU tests.
import { describe, expect, it } from 'vitest'
import type { Cupti } from '../../src/native/cupti.js'
import { TamperingDetected } from '../../src/engine/host/code-integrity.js'
import { CuptiOwnership } from '../../src/engine/host/cupti-ownership.js'

/** CUPTI's subscriber slot: who holds it, by the name CUPTI reports for it. */
class SubscriberSlot {
  constructor(
    public holder?: string,
    private readonly multiple = false,
  ) {}

  asCupti(): Cupti {
    return {
      claim: () => {
        if (this.holder !== undefined && !this.multiple) return this.holder
        this.holder ??= 'CUPTI for vitest-kernel-bench'
        return undefined
      },
      release: () => {
        this.holder = undefined
      },
      subscriber: () => (this.multiple ? undefined : this.holder),
    } as unknown as Cupti
  }
}

const caught = (fn: () => void): Error => {
  try {
    fn()
  } catch (error) {
    return error as Error
  }
  throw new Error('did not throw')
}

describe('CuptiOwnership', () => {
  it('holds the subscriber, and passes its checks while nobody takes it', () => {
    const slot = new SubscriberSlot()
    const ownership = new CuptiOwnership(slot.asCupti())
    expect(ownership.description).toBe('held by the harness')
    expect(slot.holder).toBe('CUPTI for vitest-kernel-bench')
    ownership.check('solution()', 'after timing the case')
  })

  it('refuses the solution when CUPTI let go of the harness\'s subscriber, or another holds it now', () => {
    const slot = new SubscriberSlot()
    const ownership = new CuptiOwnership(slot.asCupti())
    slot.holder = undefined // cuptiFinalize
    const error = caught(() => ownership.check('the solution', 'after timing the case'))
    expect(error).toBeInstanceOf(TamperingDetected)
    expect(error.message).toContain('the solution took CUPTI\'s callback subscriber from the harness (found after timing the case): CUPTI let go of it')

    const other = new SubscriberSlot()
    const held = new CuptiOwnership(other.asCupti())
    other.holder = 'CUPTI for a solution'
    expect(caught(() => held.check('the solution', 'after timing the case')).message).toContain('CUPTI gave it to CUPTI for a solution')
  })

  it('says who holds CUPTI when the harness cannot, and checks nothing then', () => {
    const slot = new SubscriberSlot('Nsight Systems')
    const ownership = new CuptiOwnership(slot.asCupti())
    expect(ownership.description).toBe("not held: Nsight Systems holds CUPTI's subscriber")
    ownership.check('solution()', 'after timing the case')
    expect(new CuptiOwnership('CUPTI could not load (no libcupti)').description).toBe('not held: CUPTI could not load (no libcupti)')
  })

  it('goes on without holding it where CUPTI fails to subscribe at all', () => {
    const failing = { claim: () => { throw new Error('kb_cupti_claim failed: CUPTI_ERROR_NOT_INITIALIZED') } } as unknown as Cupti
    const ownership = new CuptiOwnership(failing)
    expect(ownership.description).toBe('not held: kb_cupti_claim failed: CUPTI_ERROR_NOT_INITIALIZED')
    ownership.check('solution()', 'after timing the case')
  })

  it('does not hold a subscriber where CUPTI takes several (holding one protects nothing)', () => {
    const slot = new SubscriberSlot(undefined, true)
    const ownership = new CuptiOwnership(slot.asCupti())
    expect(ownership.description).toBe('not held: this CUPTI takes more than one subscriber')
    expect(slot.holder).toBeUndefined()
  })

  it('lets go for the range profiler and takes it back, refusing a solution that subscribed in between', () => {
    const slot = new SubscriberSlot()
    const ownership = new CuptiOwnership(slot.asCupti())
    expect(ownership.whileReleased('solution()', () => slot.holder)).toBeUndefined()
    expect(slot.holder).toBe('CUPTI for vitest-kernel-bench')

    const error = caught(() =>
      ownership.whileReleased('solution()', () => {
        slot.holder = 'CUPTI for a solution'
        throw new Error('the profiler failed')
      }),
    )
    expect(error).toBeInstanceOf(TamperingDetected)
    expect(error.message).toContain("solution() subscribed to CUPTI's callbacks while the range profiler ran (CUPTI's subscriber is now CUPTI for a solution)")
  })
})
