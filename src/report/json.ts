// The JSON results file (docs/result-schema.md): every bench's KernelBenchResult with derived metrics, the tool
// and driver versions, and the CI guard's verdicts. Pure: the reporter collects the benches and writes the text.
import type { RunTime } from './phases.js'
import type { CaseResult, KernelBenchResult } from '../shared/results.js'
import { caseCounters, type CountersRecord } from './counters.js'
import { caseFigures, geometricMeanOmitted, geometricMeans } from './kernel-table.js'
import type { Roofline } from './metrics.js'

/** Bump on any change a reader of the file could notice, and update docs/result-schema.md with it. */
export const RESULTS_FILE_VERSION = 2
export const RESULTS_FILE_SCHEMA = 'vitest-kernel-bench/results'

/** One benchmark of the run as the reporter saw it: its result, if it produced one, and Vitest's verdict on it. */
export interface ReportedBench {
  /** The bench file, relative to the Vitest root, with '/' separators. */
  file: string
  name: string
  /** Vitest's state of the task ('pending' when the run was interrupted). */
  state: 'passed' | 'failed' | 'skipped' | 'pending'
  /** Absent when the bench failed before producing one (compile error, bad spec). */
  result?: KernelBenchResult
  /** Vitest's error messages for a failed bench. */
  errors: string[]
}

/** Versions of the tools in the run (the GPU side is read from the device reports). */
export interface ToolVersions {
  vitestKernelBench: string
  vitest: string
  node: string
}

export interface RunVersions extends ToolVersions {
  /** NVIDIA driver release, e.g. '580.95.05' (from NVML). */
  nvidiaDriver?: string
  /** Highest CUDA version the driver supports, e.g. '13.0'. */
  cudaDriver?: string
  /** CUDA runtime the harness runs on, e.g. '13.0'. */
  cudaRuntime?: string
}

/** Roofline figures of a case against one set of peaks; computePercent is absent when the dtype has no peak. */
export interface RooflineMetrics {
  computePercent?: number
  bandwidthPercent?: number
  solPercent?: number
  floorMs?: number
  bound?: 'compute' | 'memory'
}

/** Figures derived from a timed case's median runtime, so readers need no peak table of their own. */
export interface CaseMetrics extends RooflineMetrics {
  tflops: number
  gbPerSecond: number
  /** The same roofline figures against the GPU's measured ceilings ("% of practical peak"), when measured. */
  practical?: RooflineMetrics
}

/**
 * A case with its derived figures; `counters` (the `counters` option) replaces the raw counters of its outcome with
 * each kernel's theoretical occupancy, the duration-weighted aggregate and the verdict.
 */
export type CaseRecord = CaseResult & { metrics?: CaseMetrics; counters?: CountersRecord }

export type ResultRecord = Omit<KernelBenchResult, 'cases'> & {
  cases: CaseRecord[]
  /** Geometric means over the timed cases (docs/architecture.md, "Figures"); absent when none was timed or a case failed. */
  geometricMean?: { cases: number; runtimeMs: number; tflops: number }
  /** Why there is no geometricMean although cases ran: e.g. 'no geometric mean: 1 case failed'. */
  geometricMeanOmitted?: string
}

export type BenchRecord = Omit<ReportedBench, 'result'> & { result?: ResultRecord }

export interface ResultsFile {
  schema: typeof RESULTS_FILE_SCHEMA
  version: typeof RESULTS_FILE_VERSION
  /** When the run ended (ISO 8601). */
  createdAt: string
  versions: RunVersions
  /** Where the run's wall time went (the reporter's account at the run's end; absent in a merge of shards). */
  time?: RunTime
  benches: BenchRecord[]
}

function rooflineMetrics(line: Roofline): RooflineMetrics {
  return {
    computePercent: line.computePercent,
    bandwidthPercent: line.bandwidthPercent,
    solPercent: line.solPercent,
    floorMs: line.floorMs,
    bound: line.bound,
  }
}

function caseMetrics(result: KernelBenchResult, c: CaseResult): CaseMetrics | undefined {
  const f = caseFigures(result, c)
  if (!f) return undefined
  return {
    tflops: f.flopsPerSecond / 1e12,
    gbPerSecond: f.gbPerSecond,
    // The top-level figures stay the datasheet's, as documented; a reader falls back to `practical` itself.
    ...(f.roofline && rooflineMetrics(f.roofline)),
    ...(f.practical && { practical: rooflineMetrics(f.practical) }),
  }
}

function resultRecord(result: KernelBenchResult): ResultRecord {
  const means = geometricMeans(result)
  const omitted = geometricMeanOmitted(result)
  return {
    ...result,
    cases: result.cases.map((c) => {
      const metrics = caseMetrics(result, c)
      const counters = caseCounters(c)
      if (!counters || c.outcome.status !== 'ok') return metrics ? { ...c, metrics } : c
      const { counters: _raw, ...outcome } = c.outcome
      return { ...c, outcome, ...(metrics && { metrics }), counters }
    }),
    ...(means && { geometricMean: { cases: means.cases, runtimeMs: means.runtimeMs, tflops: means.flopsPerSecond / 1e12 } }),
    ...(omitted && { geometricMeanOmitted: omitted }),
  }
}

/** Driver and CUDA versions from the first device report among the benches. */
function gpuVersions(benches: readonly ReportedBench[]): Omit<RunVersions, keyof ToolVersions> {
  const device = benches.find((b) => b.result?.device)?.result?.device
  if (!device) return {}
  return { nvidiaDriver: device.driverRelease, cudaDriver: device.driverVersion, cudaRuntime: device.runtimeVersion }
}

export function buildResultsFile(benches: readonly ReportedBench[], tools: ToolVersions, createdAt: Date, time?: RunTime): ResultsFile {
  return {
    schema: RESULTS_FILE_SCHEMA,
    version: RESULTS_FILE_VERSION,
    createdAt: createdAt.toISOString(),
    versions: { ...tools, ...gpuVersions(benches) },
    ...(time && { time }),
    benches: benches.map(({ result, ...bench }) => (result ? { ...bench, result: resultRecord(result) } : bench)),
  }
}

/** The file's text: 2-space indent, trailing newline. NaN (an unknown clock) becomes null, as JSON has no NaN. */
export function serializeResultsFile(file: ResultsFile): string {
  return `${JSON.stringify(file, null, 2)}\n`
}
