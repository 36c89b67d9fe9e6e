// The counters of one untimed solution() call: per kernel, the figures of Nsight Compute's "GPU Speed Of Light
// Throughput" and "Occupancy" sections, under ncu's metric names, with the kernel's name and launch configuration.
// The launch configurations come from CUPTI's activity records of one run of the call, the metrics from the range
// profiler over further runs (one per pass they take), matched in launch order; the two never run together, as ncu
// profiles without tracing. Each pass runs the call twice inside its profiling session, the L2 flush between, and
// keeps the second: a kernel launched first after CUPTI programs a pass's counters runs slow (on an H100, a vector
// add of 2^20 floats read 7.7–8.5 µs first and 6.0–6.3 µs second, ncu 6.1 µs; at 2^16 floats 3.9 µs first, 2.85–3.1 µs
// second, ncu 2.9 µs, while a flush kernel ahead of the call left it at 3.4 µs).
import { COUNTER_METRICS, type CounterSet, type KernelCounters, type KernelLaunch } from '../shared/counters.js'
import type { Cupti, GpuOperation } from './cupti.js'
import { synchronize } from './cuda.js'
import { MAX_KERNELS_PER_CALL, type RangeProfiler } from './range-profiler.js'

/** One counted call: its kernels, and the passes the metrics took. */
export interface CountedKernels {
  kernels: KernelCounters[]
  passes: number
}

/** The counted call's ranges could not be matched with what it launched; the message says how. */
export class CountedCallMismatch extends Error {
  override name = 'CountedCallMismatch'
}

// The external correlation id the traced run is pushed with; one run per Cupti session, so any id would do.
const TRACED_RUN = 1

/** "1 memset, 2 kernels": what one run launched, for messages. */
export function describeOperations(operations: readonly GpuOperation[]): string {
  const counts = new Map<GpuOperation['kind'], number>()
  for (const { kind } of operations) counts.set(kind, (counts.get(kind) ?? 0) + 1)
  const noun: Record<GpuOperation['kind'], [string, string]> = { kernel: ['kernel', 'kernels'], memset: ['memset', 'memsets'], memcpy: ['copy', 'copies'] }
  const parts = [...counts].map(([kind, n]) => `${n} ${noun[kind][n === 1 ? 0 : 1]}`)
  return parts.join(', ') || 'nothing'
}

/**
 * The kernels of a counted call, each with its range's metrics. `operations`: what the traced run launched, in order;
 * `values`: the range profiler's ranges, in launch order, one per kernel, or, where CUPTI made a memset or copy a
 * range too, one per operation: those are dropped (ncu profiles kernels only). Any other count means the runs
 * launched different work, and their figures cannot be put together.
 */
export function matchRanges(operations: readonly GpuOperation[], values: readonly (readonly number[])[]): KernelCounters[] {
  const withMetrics = (launch: KernelLaunch, row: readonly number[]): KernelCounters => ({
    ...launch,
    metrics: Object.fromEntries(COUNTER_METRICS.map((metric, m) => [metric, row[m]!])) as CounterSet,
  })
  const kernels = operations.flatMap((operation) => (operation.kind === 'kernel' ? [operation.launch] : []))
  if (values.length === kernels.length) return kernels.map((launch, i) => withMetrics(launch, values[i]!))
  if (values.length === operations.length) {
    return operations.flatMap((operation, i) => (operation.kind === 'kernel' ? [withMetrics(operation.launch, values[i]!)] : []))
  }
  throw new CountedCallMismatch(
    `counters: the range profiler recorded ${values.length} kernels per pass, but the traced run of the same call launched ` +
      `${describeOperations(operations)}: solution() does not launch the same work every time it is called`,
  )
}

/** What `call` launches, from one run traced by CUPTI's activity API, with `prepare` before it. */
function tracedRun(cupti: Cupti, prepare: () => void, call: () => void): GpuOperation[] {
  cupti.start()
  try {
    cupti.keepLaunches(true)
    prepare()
    cupti.push(TRACED_RUN)
    try {
      call()
    } finally {
      cupti.pop()
    }
    synchronize()
    cupti.flush()
    return cupti.launches(TRACED_RUN)
  } finally {
    cupti.keepLaunches(false)
    cupti.stop()
  }
}

/** How a counted call is run: `call` itself, and the work around it. */
export interface CountedRuns {
  /** Before every traced run and pass, outside profiling and tracing (its inputs, then a synchronize). */
  prepare: () => void
  /** Right before the call that is kept: the L2 flush, `flushKernels` kernels whose ranges are dropped. */
  flush: () => void
  flushKernels: number
  call: () => void
}

/**
 * The ranges of the kept call in one pass of [call, flush, call]: the last half once the flush's `flushKernels` ranges
 * are set aside. An odd remainder means the two calls launched different numbers of kernels.
 */
export function keptRanges(values: readonly (readonly number[])[], flushKernels: number): (readonly number[])[] {
  const calls = values.length - flushKernels
  if (calls < 0 || calls % 2 !== 0) {
    throw new CountedCallMismatch(
      `counters: the two calls of a pass launched different numbers of kernels (${calls} in all): ` +
        'solution() does not launch the same work every time it is called',
    )
  }
  return values.slice(values.length - calls / 2)
}

/**
 * Counts every kernel `call` launches on the current context (device `device`'s): one traced run for the launch
 * configurations, then one run per pass of the metrics. Call it after the case's timed calls, while `profiler` is not
 * enabled for timing and `cupti` is not started. Throws ProfilerUnavailableError where the counters cannot be read.
 */
export function countCall(profiler: RangeProfiler, cupti: Cupti, device: number, { prepare, flush, flushKernels, call }: CountedRuns): CountedKernels {
  const operations = tracedRun(cupti, prepare, call)
  const pass = () => {
    call()
    flush()
    call()
  }
  const counted = profiler.countCall(device, COUNTER_METRICS, prepare, pass, 2 * MAX_KERNELS_PER_CALL + flushKernels)
  return { kernels: matchRanges(operations, keptRanges(counted.values, flushKernels)), passes: counted.passes }
}
