// What bounds a case: its kernels' counters weighted by their duration, and the verdict Nsight Compute's
// "Bottleneck" rule (SOLBottleneck, in its SpeedOfLight rules) gives on them. Pure.
//
// ncu's rule, on compute throughput SM = sm__throughput and memory throughput MEM =
// gpu__compute_memory_throughput (both % of peak sustained, elapsed), with its own thresholds
// `balanced_threshold = 10`, `latency_bound_threshold = 60`, `no_bound_threshold = 80`, `waves_threshold = 1`:
// - SM or MEM at or above 80: "High Throughput", "This workload is utilizing greater than 80.0% of the available
//   compute or memory performance of the device"; the unit to analyze is the busiest memory unit when MEM > SM;
// - else both below 60: "Latency Issue", "Achieved compute throughput and/or memory bandwidth below 60.0% of peak
//   typically indicate latency issues"; or "Small Grid" when the grid fills less than one wave of the SMs;
// - else 10 points or more apart: "High Compute Throughput" ("Compute is more heavily utilized than Memory") or
//   "High Memory Throughput" ("Memory is more heavily utilized than Compute … to identify the DRAM bottleneck");
// - else "Balanced Throughput" ("Compute and Memory are well-balanced").
// The busiest memory unit is the largest part of MEM's breakdown, named by its prefix (dram/fbpa → DRAM,
// l1tex → L1, lts/ltc → L2); here the largest of dram__, l1tex__ and lts__throughput, each itself the largest part of
// its unit. ncu names no compute unit; here the busiest of the FMA, ALU, LSU and tensor pipes is named beside it.
import type { CounterMetric, CounterSet, KernelCounters, SmLimits } from '../shared/counters.js'
import { theoreticalOccupancy } from './occupancy.js'

/** The thresholds of ncu's SOLBottleneck rule, in % of peak (waves: full waves of the SMs). */
export const SOL_THRESHOLDS = { balanced: 10, latency: 60, bound: 80, waves: 1 } as const

export type Bound = 'compute' | 'memory' | 'latency' | 'balanced'

/** The name ncu's SOLBottleneck rule gives its message. */
export type SolRule = 'High Throughput' | 'High Compute Throughput' | 'High Memory Throughput' | 'Balanced Throughput' | 'Latency Issue' | 'Small Grid'

export interface BoundVerdict {
  bound: Bound
  rule: SolRule
  /** The busiest unit on the bound side: 'DRAM', 'L1', 'L2' for memory; 'FMA', 'ALU', 'LSU', 'tensor' pipe for compute. */
  unit?: string
  /** A short phrase for a table cell, e.g. 'memory-bound (DRAM 92%)'. */
  text: string
}

/** A case's counters: each kernel's weighted by its gpu__time_duration.sum. */
export interface CaseCounters {
  kernels: number
  /** Every metric's duration-weighted mean over the kernels, except gpu__time_duration.sum: their sum, ns. */
  metrics: CounterSet
  /** Duration-weighted theoretical occupancy, %, where the SM's limits were given. */
  theoreticalOccupancyPct?: number
  /** The most waves of any kernel's grid (as ncu aggregates them), where the SM's limits were given. */
  waves?: number
}

const DURATION = 'gpu__time_duration.sum'
/** ncu's compute (SM) throughput and memory throughput, the two axes of its speed-of-light section. */
export const SM = 'sm__throughput.avg.pct_of_peak_sustained_elapsed'
export const MEMORY = 'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed'

const MEMORY_UNITS: readonly (readonly [CounterMetric, string])[] = [
  ['dram__throughput.avg.pct_of_peak_sustained_elapsed', 'DRAM'],
  ['l1tex__throughput.avg.pct_of_peak_sustained_elapsed', 'L1'],
  ['lts__throughput.avg.pct_of_peak_sustained_elapsed', 'L2'],
]
const COMPUTE_PIPES: readonly (readonly [CounterMetric, string])[] = [
  ['sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active', 'FMA'],
  ['sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active', 'ALU'],
  ['sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active', 'LSU'],
  ['sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active', 'tensor'],
]

/** The unit whose metric is largest (the first on a tie), with that value. */
function busiest(metrics: CounterSet, units: readonly (readonly [CounterMetric, string])[]): { unit: string; pct: number } {
  return units.map(([metric, unit]) => ({ unit, pct: metrics[metric] })).reduce((a, b) => (b.pct > a.pct ? b : a))
}

/**
 * One set of counters for a case of several kernels: each metric's mean weighted by the kernels' durations (what
 * a unit was busy with over the case's GPU time), the durations summed. `limits`: the SM's, to add the
 * theoretical occupancy and the waves.
 */
export function aggregateCounters(kernels: readonly KernelCounters[], limits?: SmLimits): CaseCounters {
  if (kernels.length === 0) throw new Error('aggregateCounters: no kernels')
  const total = kernels.reduce((sum, k) => sum + k.metrics[DURATION], 0)
  // Kernels too short to register any time count alike rather than not at all.
  const weights = kernels.map((k) => (total > 0 ? k.metrics[DURATION] / total : 1 / kernels.length))
  const mean = (value: (k: KernelCounters, i: number) => number) => kernels.reduce((sum, k, i) => sum + weights[i]! * value(k, i), 0)
  const metrics = Object.fromEntries(
    Object.keys(kernels[0]!.metrics).map((metric) => {
      const name = metric as CounterMetric
      return [name, name === DURATION ? total : mean((k) => k.metrics[name])]
    }),
  ) as CounterSet
  if (!limits) return { kernels: kernels.length, metrics }
  const occupancy = kernels.map((k) => theoreticalOccupancy(k, limits))
  return {
    kernels: kernels.length,
    metrics,
    theoreticalOccupancyPct: mean((_, i) => occupancy[i]!.pct),
    waves: Math.max(...occupancy.map((o) => o.waves)),
  }
}

const pct = (value: number) => `${Math.round(value)}%`

/** ncu's SOLBottleneck verdict on one set of counters; `waves` (see CaseCounters) tells a small grid from latency. */
export function boundVerdict(metrics: CounterSet, waves?: number): BoundVerdict {
  const sm = metrics[SM]
  const memory = metrics[MEMORY]
  const { bound: high, latency, balanced } = SOL_THRESHOLDS
  const side = (bound: 'compute' | 'memory', rule: SolRule): BoundVerdict => {
    const { unit, pct: unitPct } = busiest(metrics, bound === 'memory' ? MEMORY_UNITS : COMPUTE_PIPES)
    const label = bound === 'memory' ? unit : `${unit} pipe`
    return { bound, rule, unit, text: `${bound}-bound (${label} ${pct(unitPct)})` }
  }
  if (sm >= high || memory >= high) return side(memory > sm ? 'memory' : 'compute', 'High Throughput')
  if (sm < latency && memory < latency) {
    const both = `SM ${pct(sm)}, memory ${pct(memory)}`
    if (waves !== undefined && waves < SOL_THRESHOLDS.waves) {
      return { bound: 'latency', rule: 'Small Grid', text: `latency-bound (grid of ${waves.toFixed(2)} waves; ${both})` }
    }
    return { bound: 'latency', rule: 'Latency Issue', text: `latency-bound (${both})` }
  }
  if (Math.abs(sm - memory) >= balanced) {
    return memory > sm ? side('memory', 'High Memory Throughput') : side('compute', 'High Compute Throughput')
  }
  return { bound: 'balanced', rule: 'Balanced Throughput', text: `balanced (SM ${pct(sm)}, memory ${pct(memory)})` }
}
