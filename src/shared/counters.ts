// The counters of a case (the `counters` option, docs/protocol.md step 12a): what the device host reads for one
// untimed call, per kernel, under Nsight Compute's metric names, and the limits of the GPU's SMs that the report
// needs for the theoretical occupancy. Plain data: it crosses the process boundary in the case's outcome.

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

/** What one kernel was launched with, as CUPTI's kernel activity record has it. */
export interface KernelLaunch {
  /** As written in the source, parameters included (demangled). */
  name: string
  grid: readonly [number, number, number]
  block: readonly [number, number, number]
  registersPerThread: number
  staticSharedBytes: number
  dynamicSharedBytes: number
}

/** One kernel of the counted call. */
export interface KernelCounters extends KernelLaunch {
  metrics: CounterSet
}

/** What bounds the blocks resident on one SM: the inputs of the CUDA occupancy rules. */
export interface SmLimits {
  computeCapability: string // e.g. '9.0'
  multiProcessors: number
  warpSize: number
  maxThreadsPerBlock: number
  maxThreadsPerSm: number
  maxBlocksPerSm: number
  registersPerSm: number
  registersPerBlock: number
  sharedBytesPerSm: number
  /** Shared memory the driver reserves in every block (1 KB from sm_80). */
  reservedSharedBytesPerBlock: number
}

/**
 * A case's counters as the device host read them: its kernels in launch order, counted over `passes` runs of the call,
 * and the SM's limits; or why they are missing ('unavailable': this machine cannot read them, the message says how
 * to allow it; 'failed': the counted call could not be counted). `costMs`: the wall time of the counted call and
 * its reading, which no timed sample includes.
 */
export type CaseCountersOutcome =
  | { status: 'ok'; kernels: KernelCounters[]; passes: number; limits: SmLimits; costMs: number }
  | { status: 'unavailable' | 'failed'; reason: string; costMs: number }
