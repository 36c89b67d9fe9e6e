// A case's counters as the reports show them (the `counters` option): each kernel with its theoretical occupancy,
// the duration-weighted aggregate and ncu's bottleneck verdict on it, or why the counters are missing. Pure.
import type { CaseCountersOutcome, KernelCounters } from '../shared/counters.js'
import type { CaseResult } from '../shared/results.js'
import { aggregateCounters, boundVerdict, type BoundVerdict, type CaseCounters } from './bound.js'
import { theoreticalOccupancy, type TheoreticalOccupancy } from './occupancy.js'

export interface KernelCountersRecord extends KernelCounters {
  theoreticalOccupancy: Pick<TheoreticalOccupancy, 'pct' | 'blocksPerSm' | 'limiter' | 'waves'>
}

/** What the JSON file and the tables hold of a case's counters. */
export type CountersRecord =
  | { status: 'ok'; passes: number; costMs: number; kernels: KernelCountersRecord[]; aggregate: CaseCounters; verdict: BoundVerdict }
  | { status: 'unavailable' | 'failed'; reason: string; costMs: number }

export function countersRecord(outcome: CaseCountersOutcome): CountersRecord {
  if (outcome.status !== 'ok') return outcome
  const { kernels, limits, passes, costMs } = outcome
  const aggregate = aggregateCounters(kernels, limits)
  return {
    status: 'ok',
    passes,
    costMs,
    kernels: kernels.map((k) => {
      const { pct, blocksPerSm, limiter, waves } = theoreticalOccupancy(k, limits)
      return { ...k, theoreticalOccupancy: { pct, blocksPerSm, limiter, waves } }
    }),
    aggregate,
    verdict: boundVerdict(aggregate.metrics, aggregate.waves),
  }
}

/** The case's counters, where its outcome has them (or says why they are missing). */
export function caseCounters(c: CaseResult): CountersRecord | undefined {
  return c.outcome.status === 'ok' && c.outcome.counters ? countersRecord(c.outcome.counters) : undefined
}

/** The `bound` cell: the verdict's text, or why the counters are missing, shortly. */
export function boundCell(record: CountersRecord | undefined): string {
  if (!record) return ''
  if (record.status === 'ok') return record.verdict.text
  return record.status === 'unavailable' ? 'no counters (see below)' : 'counters failed (see below)'
}
