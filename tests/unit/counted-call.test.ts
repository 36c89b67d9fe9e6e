// Matching the range profiler's ranges of a counted call (step 12a) with what CUPTI's activity records say the traced
// run of the same call launched: one range per kernel, or per operation where a memset or copy got a range too.
import { describe, expect, it } from 'vitest'
import type { GpuOperation } from '../../src/native/cupti.js'
import { CountedCallMismatch, describeOperations, keptRanges, matchRanges } from '../../src/native/counters.js'
import { COUNTER_METRICS, type KernelLaunch } from '../../src/shared/counters.js'
import { captureError } from '../helpers/capture-error.js'

const launch = (name: string): KernelLaunch => ({
  name,
  grid: [128, 1, 1],
  block: [256, 1, 1],
  registersPerThread: 32,
  staticSharedBytes: 0,
  dynamicSharedBytes: 0,
})
const kernel = (name: string): GpuOperation => ({ kind: 'kernel', launch: launch(name) })
const memset: GpuOperation = { kind: 'memset' }
const memcpy: GpuOperation = { kind: 'memcpy' }
/** A range whose every metric reads `value`. */
const range = (value: number) => COUNTER_METRICS.map(() => value)

describe('matchRanges', () => {
  it('gives each kernel its range, in launch order, with the metrics under their names and the launch configuration', () => {
    const kernels = matchRanges([kernel('a'), kernel('b')], [range(1), range(2)])
    expect(kernels.map((k) => [k.name, k.metrics['gpu__time_duration.sum'], k.metrics['lts__t_sector_hit_rate.pct']])).toEqual([
      ['a', 1, 1],
      ['b', 2, 2],
    ])
    expect(kernels[0]!.grid).toEqual([128, 1, 1])
  })

  it('skips memsets and copies, whether or not the profiler made them ranges', () => {
    const operations = [memset, kernel('conv'), memcpy]
    expect(matchRanges(operations, [range(1), range(2), range(3)]).map((k) => [k.name, k.metrics['gpu__time_duration.sum']])).toEqual([['conv', 2]])
    expect(matchRanges(operations, [range(2)]).map((k) => [k.name, k.metrics['gpu__time_duration.sum']])).toEqual([['conv', 2]])
  })

  it('refuses ranges that match neither the kernels nor the operations of the traced run, with both counts', () => {
    const error = captureError(() => matchRanges([kernel('a'), memset, kernel('b')], [range(1), range(2), range(3), range(4)]))
    expect(error).toBeInstanceOf(CountedCallMismatch)
    expect((error as Error).message).toBe(
      'counters: the range profiler recorded 4 kernels per pass, but the traced run of the same call launched 2 kernels, 1 memset: ' +
        'solution() does not launch the same work every time it is called',
    )
  })

  it('a call that launched nothing has no kernels', () => {
    expect(matchRanges([], [])).toEqual([])
    expect(describeOperations([])).toBe('nothing')
    expect(describeOperations([memcpy, memcpy])).toBe('2 copies')
  })
})

describe('keptRanges', () => {
  it('keeps the second call of a pass of [call, flush, call], past the flush', () => {
    expect(keptRanges([range(1), range(2), range(9), range(3), range(4)], 1)).toEqual([range(3), range(4)])
    expect(keptRanges([range(1), range(8), range(9), range(3)], 2)).toEqual([range(3)])
    expect(keptRanges([range(8), range(9)], 2)).toEqual([])
  })

  it('refuses a pass whose two calls launched different numbers of kernels', () => {
    expect(() => keptRanges([range(9)], 2)).toThrow(CountedCallMismatch)
    const error = captureError(() => keptRanges([range(1), range(9), range(3), range(4)], 1))
    expect(error).toBeInstanceOf(CountedCallMismatch)
    expect((error as Error).message).toContain('the two calls of a pass launched different numbers of kernels (3 in all)')
  })
})
