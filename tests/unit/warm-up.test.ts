// Protocol step 5's rule (src/engine/host/start-case.ts, warmsUpAgain): how many untimed calls a case warms up with,
// counted from the verified call of step 4 where there was one.
import { describe, expect, it } from 'vitest'
import { warmsUpAgain } from '../../src/engine/host/start-case.js'

const options = { warmupRuns: 3, minTimeMs: 50 }

/** The calls the warm-up makes when each call (the verified one included) takes `callMs`. */
function warmUpCalls(callMs: number, verified: boolean, settings = options): number {
  let elapsed = verified ? callMs : 0
  let calls = 0
  while (warmsUpAgain(calls, elapsed, verified, settings)) {
    calls++
    elapsed += callMs
  }
  return calls
}

describe('warmsUpAgain', () => {
  it('makes warmupRuns calls of a short kernel, verified or not', () => {
    expect(warmUpCalls(0.01, true)).toBe(3)
    expect(warmUpCalls(0.01, false)).toBe(3)
  })

  it('without a verified call, always makes the first call, then stops once minTimeMs has passed', () => {
    expect(warmUpCalls(300, false)).toBe(1)
    expect(warmUpCalls(30, false)).toBe(2)
  })

  it('counts a verified call as the first: none after a verification of minTimeMs or more, fewer after a shorter one', () => {
    expect(warmUpCalls(300, true)).toBe(0)
    expect(warmUpCalls(50, true)).toBe(0)
    expect(warmUpCalls(30, true)).toBe(1)
  })

  it('makes no call when warmupRuns is 0', () => {
    expect(warmUpCalls(0.01, true, { ...options, warmupRuns: 0 })).toBe(0)
    expect(warmUpCalls(0.01, false, { ...options, warmupRuns: 0 })).toBe(0)
  })
})
