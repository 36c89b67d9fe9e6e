// The run's account: where a `vitest bench` run's wall time went, summed over its benches and cases from the phases
// each result carries (src/shared/phases.ts), with the reporter's own time (one line in the summary, and the JSON
// file's top-level `time`); and the closing count of benches passed, failed and skipped.
import { CASE_PHASES, sumPhases, type CasePhase, type PhaseTimes } from '../shared/phases.js'
import type { KernelBenchResult } from '../shared/results.js'

/** Seconds with one decimal: the run's account is read at a glance. */
const formatDuration = (ms: number) => `${(ms / 1000).toFixed(1)} s`

export interface RunTime {
  /** From the reporter's start to the run's end, ms. */
  wallMs: number
  /** The reporter's own work: tables, the results files, charts. */
  reportingMs: number
  /** Summed over every bench (compile) and case (the rest), ms. */
  phases: PhaseTimes
}

/** The phases of every bench and case of the results. */
export function runPhases(results: readonly KernelBenchResult[]): PhaseTimes {
  return sumPhases(results.flatMap((result) => [result.phases, ...result.cases.map((c) => c.phases)]))
}

const SHORT_NAMES: Record<CasePhase, string> = {
  compile: 'compiling',
  gpuWait: 'waiting for the GPU',
  hostStart: 'host start',
  load: 'loading',
  warmup: 'warm-up',
  verify: 'verification',
  checks: 'checks',
  timing: 'timing',
  counters: 'counters',
  other: 'other',
}

/**
 * "time: wall 52.1 s · cases 41.3 s (timing 28.2 s, verification 4.1 s, …) · waiting for compiles 2.2 s · reporting
 * 0.3 s". The cases' phases are largest first; compiling is what benches waited for, not the compilers' own time
 * (they run in parallel with other benches' cases).
 */
export function timeLine({ wallMs, reportingMs, phases }: RunTime): string {
  const casePhases = CASE_PHASES.filter((phase) => phase !== 'compile' && (phases[phase] ?? 0) > 0)
  const casesMs = casePhases.reduce((sum, phase) => sum + (phases[phase] ?? 0), 0)
  const parts = casePhases
    .sort((a, b) => (phases[b] ?? 0) - (phases[a] ?? 0))
    .map((phase) => `${SHORT_NAMES[phase]} ${formatDuration(phases[phase] ?? 0)}`)
  return [
    `time: wall ${formatDuration(wallMs)}`,
    `cases ${formatDuration(casesMs)}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`,
    `waiting for compiles ${formatDuration(phases.compile ?? 0)}`,
    `reporting ${formatDuration(reportingMs)}`,
  ].join(' · ')
}

/** "benches: 3 passed · 1 failed · 12 skipped (16)" from the state of each bench (Vitest's test states). */
export function countLine(states: readonly string[]): string {
  const count = (state: string) => states.filter((s) => s === state).length
  const parts = ['passed', 'failed', 'skipped'].map((state) => `${count(state)} ${state}`)
  return `benches: ${parts.join(' · ')} (${states.length})`
}
