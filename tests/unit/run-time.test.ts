import { describe, expect, it } from 'vitest'
import { countLine, gpuLine, runPhases, timeLine } from '../../src/report/phases.js'
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

  it('names the moves between places apart from the timing', () => {
    const line = timeLine({ wallMs: 10_000, reportingMs: 100, phases: { timing: 4000, moves: 3500, other: 500 } })
    expect(line).toBe('time: wall 10.0 s · cases 8.0 s (timing 4.0 s, moves 3.5 s, other 0.5 s) · waiting for compiles 0.0 s · reporting 0.1 s')
  })

  it('says so when no case has an account (nothing ran on a GPU)', () => {
    expect(timeLine({ wallMs: 900, reportingMs: 12, phases: {} })).toBe('time: wall 0.9 s · cases 0.0 s · waiting for compiles 0.0 s · reporting 0.0 s')
  })
})

describe('the account per GPU', () => {
  const startedAtMs = 1_800_000_000_000
  /** A result whose cases ran on the GPUs given, with the phases given, holding the GPU from..to s after the start. */
  const onGpus = (cases: Array<[number, NonNullable<KernelBenchResult['phases']>, number?, number?]>): KernelBenchResult =>
    ({
      cases: cases.map(([index, phases, from, to], i) => ({
        name: `c${i}`,
        gpu: { index, pciBusId: `0000:0${index}:00.0` },
        phases,
        ...(from !== undefined && to !== undefined && { claimed: { fromMs: startedAtMs + from * 1000, toMs: startedAtMs + to * 1000 } }),
      })),
    }) as unknown as KernelBenchResult

  it("gives each GPU's claimed time, its three largest phases, and the wall beyond the busiest GPU; waits are not claims", () => {
    const results = [
      onGpus([
        [0, { timing: 10_000, hostStart: 2000, gpuWait: 50_000, verify: 1000, checks: 500 }],
        [1, { timing: 9000, verify: 3000 }],
      ]),
      onGpus([[1, { timing: 2000, warmup: 400, gpuWait: 7000 }]]),
    ]
    expect(gpuLine(results, { startedAtMs, wallMs: 20_000 })).toBe(
      'GPUs: 0 claimed 13.5 s (timing 10.0 s, host start 2.0 s, verification 1.0 s) · 1 claimed 14.4 s (timing 11.0 s, verification 3.0 s, warm-up 0.4 s) · wall beyond the busiest 5.6 s',
    )
  })

  it("says when each GPU's first claim began and how long before the end its last one ended", () => {
    const results = [
      onGpus([
        [0, { timing: 3000 }, 2.5, 5.5],
        [1, { timing: 4000 }, 1.25, 5.25],
      ]),
      onGpus([
        [0, { timing: 4000 }, 6, 10],
        [1, { timing: 3000 }, 5.5, 8.5],
      ]),
    ]
    expect(gpuLine(results, { startedAtMs, wallMs: 11_000 })).toBe(
      'GPUs: 0 claimed 7.0 s from 2.5 s to 1.0 s before the end (timing 7.0 s) · 1 claimed 7.0 s from 1.3 s to 2.5 s before the end (timing 7.0 s) · wall beyond the busiest 4.0 s',
    )
  })

  it('says nothing for a run on one GPU', () => {
    expect(gpuLine([onGpus([[0, { timing: 1000 }], [0, { timing: 2000 }]])], { startedAtMs, wallMs: 5000 })).toBeUndefined()
  })
})

it('closes a run with the count of benches passed, failed and skipped', () => {
  expect(countLine(['passed', 'skipped', 'failed', 'skipped', 'pending'])).toBe('benches: 1 passed · 1 failed · 2 skipped (5)')
})
