// The run's account: where a `vitest bench` run's wall time went, summed over its benches and cases from the phases
// each result carries (src/shared/phases.ts), with the reporter's own time (one line in the summary, and the JSON
// file's top-level `time`); and the closing count of benches passed, failed and skipped.
import { CASE_PHASES, sumPhases, type CasePhase, type PhaseTimes } from '../shared/phases.js'
import type { CaseResult, KernelBenchResult } from '../shared/results.js'

/** Seconds with one decimal: the run's account is read at a glance. */
const formatDuration = (ms: number) => `${(ms / 1000).toFixed(1)} s`

export interface RunTime {
  /** When the reporter started, ms since the Unix epoch (the clock of each case's `claimed`). */
  startedAtMs: number
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
  moves: 'moves',
  counters: 'counters',
  other: 'other',
}

/** The time of the phases `among`, summed, ms. */
const totalMs = (phases: PhaseTimes, among: readonly CasePhase[]) => among.reduce((sum, phase) => sum + (phases[phase] ?? 0), 0)

/** "timing 28.2 s, verification 4.1 s, …": the phases `among` that took any time, largest first. */
function largestPhases(phases: PhaseTimes, among: readonly CasePhase[]): string[] {
  return among
    .filter((phase) => (phases[phase] ?? 0) > 0)
    .sort((a, b) => (phases[b] ?? 0) - (phases[a] ?? 0))
    .map((phase) => `${SHORT_NAMES[phase]} ${formatDuration(phases[phase] ?? 0)}`)
}

/** Phases of a case, not of its bench: all but the compile wait. */
const OWN_CASE_PHASES = CASE_PHASES.filter((phase) => phase !== 'compile')

/**
 * "time: wall 52.1 s · cases 41.3 s (timing 28.2 s, verification 4.1 s, …) · waiting for compiles 2.2 s · reporting
 * 0.3 s". The cases' phases are largest first; compiling is what benches waited for, not the compilers' own time
 * (they run in parallel with other benches' cases).
 */
export function timeLine({ wallMs, reportingMs, phases }: Omit<RunTime, 'startedAtMs'>): string {
  const casesMs = totalMs(phases, OWN_CASE_PHASES)
  const parts = largestPhases(phases, OWN_CASE_PHASES)
  return [
    `time: wall ${formatDuration(wallMs)}`,
    `cases ${formatDuration(casesMs)}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`,
    `waiting for compiles ${formatDuration(phases.compile ?? 0)}`,
    `reporting ${formatDuration(reportingMs)}`,
  ].join(' · ')
}

/** Phases in which a case holds its GPU: all but the compile wait and the wait for the GPU. */
const CLAIMED_PHASES = OWN_CASE_PHASES.filter((phase) => phase !== 'gpuWait')

/**
 * For a run whose cases ran on several GPUs: how long each GPU was claimed by cases, from the run's start to its
 * first claim and from its last claim to the run's end (idle GPU that a second GPU cannot halve), its phases largest
 * first (the three largest), and how much of the wall lies beyond the busiest GPU's claims (Vitest's start,
 * collection, idle GPUs at the start, between cases and at the end): "GPUs: 0 claimed 32.5 s from 2.1 s to 0.6 s
 * before the end (timing 18.7 s, host start 4.7 s, verification 3.8 s) · 1 claimed 31.4 s (…) · wall beyond the
 * busiest 5.0 s". Undefined for a run on one GPU.
 */
export function gpuLine(results: readonly KernelBenchResult[], { startedAtMs, wallMs }: Pick<RunTime, 'startedAtMs' | 'wallMs'>): string | undefined {
  const byGpu = new Map<number, CaseResult[]>()
  for (const c of results.flatMap((result) => result.cases)) {
    if (c.gpu && c.phases) byGpu.set(c.gpu.index, [...(byGpu.get(c.gpu.index) ?? []), c])
  }
  if (byGpu.size < 2) return undefined
  const claims = [...byGpu]
    .sort(([a], [b]) => a - b)
    .map(([index, cases]) => {
      const phases = sumPhases(cases.map((c) => c.phases))
      return { index, ms: totalMs(phases, CLAIMED_PHASES), span: claimSpan(cases, startedAtMs, wallMs), largest: largestPhases(phases, CLAIMED_PHASES).slice(0, 3) }
    })
  const busiest = Math.max(...claims.map((claim) => claim.ms))
  const parts = claims.map(({ index, ms, span, largest }) => `${index} claimed ${formatDuration(ms)}${span} (${largest.join(', ')})`)
  return `GPUs: ${parts.join(' · ')} · wall beyond the busiest ${formatDuration(wallMs - busiest)}`
}

/** " from 2.1 s to 0.6 s before the end": the first claim's start and the last claim's end, "" where not recorded. */
function claimSpan(cases: readonly CaseResult[], startedAtMs: number, wallMs: number): string {
  const windows = cases.flatMap((c) => (c.claimed ? [c.claimed] : []))
  if (windows.length === 0) return ''
  const first = Math.min(...windows.map((w) => w.fromMs)) - startedAtMs
  const last = Math.max(...windows.map((w) => w.toMs)) - startedAtMs
  return ` from ${formatDuration(first)} to ${formatDuration(wallMs - last)} before the end`
}

/** "benches: 3 passed · 1 failed · 12 skipped (16)" from the state of each bench (Vitest's test states). */
export function countLine(states: readonly string[]): string {
  const count = (state: string) => states.filter((s) => s === state).length
  const parts = ['passed', 'failed', 'skipped'].map((state) => `${count(state)} ${state}`)
  return `benches: ${parts.join(' · ')} (${states.length})`
}
