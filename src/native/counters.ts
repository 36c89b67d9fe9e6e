// The counters of one untimed solution() call: per kernel, the figures of Nsight Compute's "GPU Speed Of Light
// Throughput" and "Occupancy" sections, under ncu's metric names, with the kernel's name and launch configuration.
// The metrics come from the range profiler (each kernel replayed for as many passes as they take), the launch
// configuration from CUPTI's kernel activity records of the same call, matched in launch order.
import { COUNTER_METRICS, type CounterSet, type KernelCounters, type KernelLaunch } from '../shared/counters.js'
import type { Cupti } from './cupti.js'
import { synchronize } from './cuda.js'
import type { CountedCall, RangeProfiler } from './range-profiler.js'

/** One counted call: its kernels, and the passes each was replayed for. */
export interface CountedKernels {
  kernels: KernelCounters[]
  passes: number
}

// The external correlation id the counted call is pushed with; one call per Cupti session, so any id would do.
const COUNTED_CALL = 1

/**
 * Runs `call` once on the current context (device `device`'s), every kernel it launches replayed and profiled:
 * its counters, in launch order. Call it after the case's timed calls, while `profiler` is not enabled for timing
 * and `cupti` is not started. Throws ProfilerUnavailableError where the counters cannot be read.
 */
export function countCall(profiler: RangeProfiler, cupti: Cupti, device: number, call: () => void): CountedKernels {
  cupti.start()
  let counted: CountedCall
  let launches: KernelLaunch[]
  try {
    cupti.keepLaunches(true)
    cupti.push(COUNTED_CALL)
    try {
      counted = profiler.countCall(device, COUNTER_METRICS, call)
    } finally {
      cupti.pop()
    }
    synchronize()
    cupti.flush()
    launches = cupti.launches(COUNTED_CALL)
  } finally {
    cupti.keepLaunches(false)
    cupti.stop()
  }
  const { values, passes } = counted
  if (launches.length !== values.length) {
    throw new Error(`counters: ${values.length} kernels were profiled but CUPTI recorded ${launches.length} kernel launches`)
  }
  const kernels = launches.map((launch, i) => ({
    ...launch,
    metrics: Object.fromEntries(COUNTER_METRICS.map((metric, m) => [metric, values[i]![m]!])) as CounterSet,
  }))
  return { kernels, passes }
}
