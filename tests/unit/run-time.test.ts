import { describe, expect, it } from 'vitest'
import { countLine, runPhases, timeLine } from '../../src/report/phases.js'
import type { KernelBenchResult } from '../../src/shared/results.js'

/** A result with only what the account reads: the bench's phases and its cases' phases. */
function result(phases: KernelBenchResult['phases'], cases: NonNullable<KernelBenchResult['phases']>[]): KernelBenchResult {
  return { phases, cases: cases.map((p, i) => ({ name: `c${i}`, params: {}, flops: 0, bytes: 0, outcome: { status: 'error', errorName: 'x', message: 'x' }, phases: p })) } as unknown as KernelBenchResult
}

describe('the run time account', () => {
  it("sums every bench's compile wait and every case's phases", () => {
    const results = [result({ compile: 2000 }, [{ timing: 500, verify: 100 }, { timing: 700, hostStart: 300 }]), result(undefined, [{ timing: 300, checks: 50 }])]
    expect(runPhases(results)).toEqual({ compile: 2000, timing: 1500, verify: 100, hostStart: 300, checks: 50 })
  })

  it('prints the wall, the cases largest phase first, the compile wait and the reporting', () => {
    const line = timeLine({ wallMs: 52_140, reportingMs: 310, phases: { compile: 2200, timing: 28_200, verify: 4100, hostStart: 3000, other: 1800 } })
    expect(line).toBe(
      'time: wall 52.1 s · cases 37.1 s (timing 28.2 s, verification 4.1 s, host start 3.0 s, other 1.8 s) · waiting for compiles 2.2 s · reporting 0.3 s',
    )
  })

  it('says so when no case has an account (nothing ran on a GPU)', () => {
    expect(timeLine({ wallMs: 900, reportingMs: 12, phases: {} })).toBe('time: wall 0.9 s · cases 0.0 s · waiting for compiles 0.0 s · reporting 0.0 s')
  })
})

it('closes a run with the count of benches passed, failed and skipped', () => {
  expect(countLine(['passed', 'skipped', 'failed', 'skipped', 'pending'])).toBe('benches: 1 passed · 1 failed · 2 skipped (5)')
})
