import { describe, expect, it } from 'vitest'
import { PhaseClock, sumPhases, withRest } from '../../src/shared/phases.js'

/** A clock that moves only when told: each tick() advances it by `ms`. */
function fakeTime() {
  let now = 0
  return { now: () => now, tick: (ms: number) => void (now += ms) }
}

describe('PhaseClock', () => {
  it('counts a nested phase to itself alone, and the rest to the phase around it', () => {
    const time = fakeTime()
    const clock = new PhaseClock(time.now)
    clock.during('timing', () => {
      time.tick(10)
      clock.during('checks', () => time.tick(3))
      time.tick(5)
      clock.during('checks', () => clock.during('verify', () => time.tick(2)))
    })
    // 20 ms in all: 3 + 0 of checks (the verify inside the second check is the verify's), 2 of verify, 15 of timing.
    expect(clock.take()).toEqual({ timing: 15, checks: 3, verify: 2 })
  })

  it('counts the time of work that throws, and starts afresh after take()', () => {
    const time = fakeTime()
    const clock = new PhaseClock(time.now)
    expect(() =>
      clock.during('verify', () => {
        time.tick(7)
        throw new Error('wrong answer')
      }),
    ).toThrow('wrong answer')
    expect(clock.take()).toEqual({ verify: 7 })
    expect(clock.take()).toEqual({})
  })

  it('times asynchronous work', async () => {
    const time = fakeTime()
    const clock = new PhaseClock(time.now)
    await clock.duringAsync('hostStart', async () => {
      await Promise.resolve()
      time.tick(450)
    })
    expect(clock.take()).toEqual({ hostStart: 450 })
  })
})

describe('sumPhases and withRest', () => {
  it('adds phases over cases, skipping cases without an account', () => {
    expect(sumPhases([{ timing: 10, checks: 1 }, undefined, { timing: 5, load: 2 }])).toEqual({ timing: 15, checks: 1, load: 2 })
  })

  it('puts what the phases do not cover into other, and nothing when they cover it all', () => {
    expect(withRest({ timing: 10, verify: 5 }, 20)).toEqual({ timing: 10, verify: 5, other: 5 })
    expect(withRest({ timing: 10, verify: 5 }, 14)).toEqual({ timing: 10, verify: 5 })
  })
})
