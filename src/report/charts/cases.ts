// What the charts draw, taken from one or more results files (a run's, or saved ones: shards, two GPUs): every
// case with its figures and whether it failed or is flagged, and every bench with the file it came from. Pure.
import type { CaseResult, KernelBenchResult } from '../../shared/results.js'
import { formatCv, formatFraction } from '../format.js'
import { caseFigures, type CaseFigures } from '../kernel-table.js'
import type { BenchRecord, ResultsFile } from '../json.js'

/** A results file and the name it is shown under when a report draws several (its file name). */
export interface ReportSource {
  name: string
  file: ResultsFile
}

/** A bench that produced a result, with the source it came from. */
export interface BenchEntry {
  source: string
  record: BenchRecord
  result: KernelBenchResult
}

/** ok: nothing to say; flagged: a figure to distrust (caseFlags in kernel-table.ts says when); failed. */
export type CaseStatus = 'ok' | 'flagged' | 'failed'

export interface CasePoint {
  bench: BenchEntry
  case: CaseResult
  /** Absent for a case that was not timed (wrong answer, error, verify mode). */
  figures?: CaseFigures
  status: CaseStatus
  /** Why the case is flagged or failed, in words. */
  reasons: string[]
}

export function benchEntries(sources: readonly ReportSource[]): BenchEntry[] {
  return sources.flatMap(({ name, file }) =>
    file.benches.flatMap((record) => (record.result && !record.result.skipped ? [{ source: name, record, result: record.result }] : [])),
  )
}

function caseReasons(c: CaseResult, f: CaseFigures | undefined): { status: CaseStatus; reasons: string[] } {
  const o = c.outcome
  if (o.status === 'wrong') return { status: 'failed', reasons: ['wrong answer'] }
  if (o.status === 'error') return { status: 'failed', reasons: [o.errorName] }
  const failed = [...(c.verdict?.fails ? [c.verdict.message] : []), ...(c.verdict?.floors ?? [])]
  if (failed.length > 0) return { status: 'failed', reasons: failed }
  const flagged = f?.flags.map((flag) => flag.reason) ?? []
  return { status: flagged.length > 0 ? 'flagged' : 'ok', reasons: flagged }
}

/**
 * What a hover text says of every timed case, flagged or not: the samples kept, those dropped and why, the CV against
 * its target and why timing stopped. A few dropped samples and a noise-stable stop are routine, so they are said here
 * rather than flagged.
 */
export function sampleDetails(result: KernelBenchResult, f: CaseFigures): string {
  const drops = [
    ...(f.droppedThrottled ? [`${f.droppedThrottled} throttled`] : []),
    ...(f.droppedInterference ? [`${f.droppedInterference} for a host stall or other GPU work`] : []),
  ]
  const dropped = drops.length > 0 ? ` (dropped ${drops.join(', ')})` : ''
  return `n ${f.samples}${dropped} · CV ${formatCv(f.cv)}, target ${formatFraction(result.options.targetCv)} · stop: ${f.stopReason}`
}

/** Every case of every bench, in file and declaration order. */
export function casePoints(benches: readonly BenchEntry[]): CasePoint[] {
  return benches.flatMap((bench) =>
    bench.result.cases.map((c) => {
      const figures = caseFigures(bench.result, c)
      return { bench, case: c, figures, ...caseReasons(c, figures) }
    }),
  )
}

/** Groups in first-seen order. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const item of items) {
    const k = key(item)
    groups.set(k, [...(groups.get(k) ?? []), item])
  }
  return groups
}

/**
 * The shortest label that tells a bench apart from the others it shares a chart with: its name, then its dtype,
 * GPU and source file where those differ among them.
 */
export function seriesLabeller(benches: readonly BenchEntry[]): (bench: BenchEntry) => string {
  const parts = (b: BenchEntry) => [b.result.dtype, b.result.device?.name ?? 'no GPU', b.source]
  const varies = parts(benches[0]!).map((_, i) => new Set(benches.map((b) => parts(b)[i])).size > 1)
  return (b) => [b.result.bench, ...parts(b).filter((_, i) => varies[i])].join(' · ')
}
