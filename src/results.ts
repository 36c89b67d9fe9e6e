// What a kernelBench produces: plain data that travels from the Vitest worker to the reporter in task.meta.
import type { Dtype } from './dtype.js'
import type { SampleSummary } from './engine/stats.js'
import type { CaseOutcome, DeviceReport } from './engine/protocol.js'
import type { MeasureOptions } from './options.js'

export const RESULT_SCHEMA_VERSION = 1

export interface CaseResult {
  name: string
  params: Record<string, number>
  flops: number
  /** Fewest bytes the case must move (each input read once, each output written once). */
  bytes: number
  outcome: CaseOutcome
  /** Statistics of the kept runtime samples, in ms (bench mode, verified cases only). */
  summary?: SampleSummary
}

export interface KernelBenchResult {
  version: typeof RESULT_SCHEMA_VERSION
  bench: string
  problem: string
  /** The solution file as the spec named it. */
  solution: string
  dtype: Dtype
  mode: 'verify' | 'bench'
  device?: DeviceReport
  arch?: string
  /** Why nothing ran (no GPU on this machine). */
  skipped?: string
  options: MeasureOptions
  cases: CaseResult[]
}

declare module '@vitest/runner' {
  interface TaskMeta {
    kernelBench?: KernelBenchResult
  }
}

/** One message for every case that failed, or undefined when all passed. */
export function failureMessage(result: KernelBenchResult): string | undefined {
  const failures = result.cases.flatMap((c) => {
    const o = c.outcome
    if (o.status === 'wrong') return [`✗ case '${c.name}': ${o.message}`]
    if (o.status === 'error') return [`✗ case '${c.name}': ${o.errorName}: ${o.message}`]
    return []
  })
  return failures.length ? `${result.bench} (${result.problem}, ${result.dtype}):\n${failures.join('\n')}` : undefined
}
