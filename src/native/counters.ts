// The counters of one untimed solution() call: per kernel, the figures of Nsight Compute's "GPU Speed Of Light
// Throughput" and "Occupancy" sections, under ncu's metric names, with the kernel's name and launch configuration.
// The metrics come from the range profiler (each kernel replayed for as many passes as they take), the launch
// configuration from CUPTI's kernel activity records of the same call, matched in launch order.
import type { Cupti, KernelLaunch } from './cupti.js'
import { synchronize } from './cuda.js'
import type { CountedCall, RangeProfiler } from './range-profiler.js'

/**
 * What is collected, as ncu names it. The first eight are ncu's own figures: SpeedOfLight's duration and
 * throughputs (its "DRAM Throughput" is gpu__dram_throughput; dram__throughput is the same ratio at the DRAM unit),
 * the L1 and L2 hit rates, Occupancy's achieved occupancy. l1tex__ and lts__throughput, with dram__throughput, name
 * the memory unit ncu's bottleneck rule names (the largest part of gpu__compute_memory_throughput's breakdown, by
 * unit); the four pipes name the busiest compute pipe. Nine passes on the H100.
 */
export const COUNTER_METRICS = [
  'gpu__time_duration.sum',
  'sm__throughput.avg.pct_of_peak_sustained_elapsed',
  'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed',
  'dram__throughput.avg.pct_of_peak_sustained_elapsed',
  'gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed',
  'l1tex__t_sector_hit_rate.pct',
  'lts__t_sector_hit_rate.pct',
  'sm__warps_active.avg.pct_of_peak_sustained_active',
  'l1tex__throughput.avg.pct_of_peak_sustained_elapsed',
  'lts__throughput.avg.pct_of_peak_sustained_elapsed',
  'sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active',
  'sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active',
  'sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active',
  'sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active',
] as const

export type CounterMetric = (typeof COUNTER_METRICS)[number]

/** One value per metric; gpu__time_duration.sum in ns, the others in %. */
export type CounterSet = Readonly<Record<CounterMetric, number>>

/** One kernel of the counted call. */
export interface KernelCounters extends KernelLaunch {
  metrics: CounterSet
}

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
