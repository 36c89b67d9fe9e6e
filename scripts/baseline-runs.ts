// Runs of the example suite as the stored-baseline replays read them (baseline-replay.ts, baseline-scenarios.ts): each
// file's measurements by case, the baseline entries `vitest bench -u` would write from them, and the assumed spreads
// given on the command line.
import { caseMeasurement, recordRun, type BaselineSettings } from '../src/baseline/guard.js'
import type { BaselineEntry, Measurement, VerdictOptions } from '../src/baseline/verdict.js'
import type { CaseResult } from '../src/shared/results.js'
import { argList } from './arguments.js'
import { casesWithBoards } from './results-file.js'

/** One GPU model per replay: the verdict compares only within a model, and the files say which board, not which model. */
export const REPLAYED_GPU = 'replayed GPU'

/**
 * A file's measurements by case, each with its board: `board` where given, else the GPU's UUID the file names. A case
 * timed before its host's share was kept takes it from `hostShares` (hostShareArgs); `boardProbeMs`, where given,
 * stands in for the board's probe (probeStandIn).
 */
export function measurementsOf(file: string, board?: string, hostShares?: ReadonlyMap<string, number>, boardProbeMs?: number): Map<string, Measurement> {
  const found = new Map<string, Measurement>()
  for (const [key, c] of casesWithBoards<CaseResult>(file)) {
    const m = caseMeasurement(c.case, board ?? c.board)
    if (!m) continue
    const share = hostShares?.get(key)
    found.set(key, {
      ...m,
      ...(m.hostShare === undefined && share !== undefined && { hostShare: share }),
      ...(boardProbeMs !== undefined && { boardProbeMs }),
    })
  }
  return found
}

/**
 * For replays of runs timed before boards' probes were kept (--probe-case '<bench> · <case>'): every board's probe time
 * stood in for by a case's median in the board's first run of the recorded code, a case that reads beyond the L2 (the
 * naive sgemm at 4096³ took 45.4–45.6 ms on one kind of H200 and 46.9–47.2 ms on the other). It replaces the probes of
 * runs that kept one, so that every board's stands on one scale.
 */
export function probeStandIn(firstRun: string): number | undefined {
  const [key] = argList('--probe-case')
  if (key === undefined) return undefined
  const m = measurementsOf(firstRun).get(key)
  if (m === undefined) throw new Error(`--probe-case: no timed case '${key}' in ${firstRun}`)
  return m.runtimeMs
}

/**
 * Each case's host's share of its time, the mean over the runs of --host-shares (runs of the same code, in the timing
 * mode of the runs replayed, that kept it): for replaying runs timed before it was kept.
 */
export function hostShareArgs(): Map<string, number> {
  const sharesByCase = new Map<string, number[]>()
  for (const file of argList('--host-shares')) {
    for (const [key, m] of measurementsOf(file)) {
      if (m.hostShare !== undefined) sharesByCase.set(key, [...(sharesByCase.get(key) ?? []), m.hostShare])
    }
  }
  return new Map([...sharesByCase].map(([key, shares]) => [key, shares.reduce((a, b) => a + b, 0) / shares.length]))
}

/** The baseline entries `vitest bench -u` with `settings` would write, run after run in this order. */
export function recordRuns(runs: ReadonlyArray<Map<string, Measurement>>, settings: BaselineSettings): Map<string, BaselineEntry> {
  const entries = new Map<string, BaselineEntry>()
  for (const [i, run] of runs.entries()) {
    for (const [key, m] of run) entries.set(key, recordRun(m, REPLAYED_GPU, entries.get(key), settings, `run ${i + 1}`).entry)
  }
  return entries
}

/** Other assumed spreads than the defaults, from --run-spread and --board-spread, to see what they would do. */
export function assumedSpreadArgs(): Partial<Pick<VerdictOptions, 'runSpread' | 'boardSpread'>> {
  const [run] = argList('--run-spread')
  const [board] = argList('--board-spread')
  return { ...(run !== undefined && { runSpread: Number(run) }), ...(board !== undefined && { boardSpread: Number(board) }) }
}
