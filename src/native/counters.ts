// The counters of one untimed solution() call: per kernel, the figures of Nsight Compute's "GPU Speed Of Light
// Throughput" and "Occupancy" sections, under ncu's metric names, with the kernel's name and launch configuration.
// The metrics come from the range profiler (each kernel replayed for as many passes as they take), the launch
// configuration from CUPTI's kernel activity records of the same call, matched in launch order.
//
// Use: new Counters(rangeProfiler, cupti); enable(device) once the case is timed; countCall(call); disable().
import type { Cupti, KernelLaunch } from './cupti.js'
import { synchronize } from './cuda.js'
import type { RangeProfiler } from './range-profiler.js'

/**
 * What is collected, as ncu names it. The first nine are the SpeedOfLight and Occupancy sections' own (ncu's SOL
 * "DRAM Throughput" is gpu__dram_throughput; dram__throughput is the same ratio at the DRAM unit); l1tex__ and
 * lts__throughput with dram__throughput name the memory unit ncu's bottleneck rule names (the largest part of
 * gpu__compute_memory_throughput's breakdown, by unit); the four pipes name the busiest compute pipe.
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

// The external correlation id the counted call is pushed with; one call per Cupti session, so any id would do.
const COUNTED_CALL = 1

export class Counters {
  constructor(
    private readonly profiler: RangeProfiler,
    private readonly cupti: Cupti,
  ) {}

  /**
   * Enables the range profiler for the counters on the current context (device `device`'s): call it after the
   * case's timed calls, as it takes the profiler. Returns how many passes each kernel is replayed for. Throws
   * ProfilerUnavailableError where the counters cannot be read.
   */
  enable(device: number): number {
    return this.profiler.enableCounters(device, COUNTER_METRICS)
  }

  /** Runs `call` once, every kernel it launches replayed and profiled: its counters, in launch order. */
  countCall(call: () => void): KernelCounters[] {
    this.cupti.start()
    let values: number[][]
    let launches: KernelLaunch[]
    try {
      this.cupti.keepLaunches(true)
      this.cupti.push(COUNTED_CALL)
      try {
        values = this.profiler.countCall(call)
      } finally {
        this.cupti.pop()
      }
      synchronize()
      this.cupti.flush()
      launches = this.cupti.launches(COUNTED_CALL)
    } finally {
      this.cupti.keepLaunches(false)
      this.cupti.stop()
    }
    if (launches.length !== values.length) {
      throw new Error(`counters: ${values.length} kernels were profiled but CUPTI recorded ${launches.length} kernel launches`)
    }
    return launches.map((launch, i) => ({
      ...launch,
      metrics: Object.fromEntries(COUNTER_METRICS.map((metric, m) => [metric, values[i]![m]!])) as CounterSet,
    }))
  }

  disable(): void {
    this.profiler.disable()
  }
}
