// Where a case's wall time goes, phase by phase: measured in the device host and in the worker, carried in the case's
// result, summed per run by the reporter. The phases partition the time: work inside a nested phase (a state check
// during timing) counts to the nested phase alone.

/** The phases of one case, in the order they first happen. */
export const CASE_PHASES = ['compile', 'gpuWait', 'hostStart', 'load', 'warmup', 'verify', 'checks', 'timing', 'moves', 'counters', 'other'] as const
export type CasePhase = (typeof CASE_PHASES)[number]

/** Milliseconds per phase; a phase that took no time is absent. */
export type PhaseTimes = Partial<Record<CasePhase, number>>

/** A clock that attributes elapsed time to phases, nested phases subtracted from the phase around them. */
export class PhaseClock {
  private totals: PhaseTimes = {}
  private readonly open: { start: number; nested: number }[] = []

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Runs `work`, counting its time (less that of phases nested in it) to `phase`. */
  during<T>(phase: CasePhase, work: () => T): T {
    const end = this.begin(phase)
    try {
      return work()
    } finally {
      end()
    }
  }

  /** As during(), for work that returns a promise: one piece of work at a time, as in the device host. */
  async duringAsync<T>(phase: CasePhase, work: () => Promise<T>): Promise<T> {
    const end = this.begin(phase)
    try {
      return await work()
    } finally {
      end()
    }
  }

  private begin(phase: CasePhase): () => void {
    const frame = { start: this.now(), nested: 0 }
    this.open.push(frame)
    return () => {
      this.open.pop()
      const elapsed = this.now() - frame.start
      this.add(phase, elapsed - frame.nested)
      const outer = this.open.at(-1)
      if (outer) outer.nested += elapsed
    }
  }

  add(phase: CasePhase, ms: number): void {
    if (ms > 0) this.totals[phase] = (this.totals[phase] ?? 0) + ms
  }

  /** The times counted since the last take(), and a fresh start. */
  take(): PhaseTimes {
    const taken = this.totals
    this.totals = {}
    return taken
  }
}

/** The sum of several cases' (or runs') phase times. */
export function sumPhases(times: readonly (PhaseTimes | undefined)[]): PhaseTimes {
  const sum: PhaseTimes = {}
  for (const entry of times) {
    for (const phase of CASE_PHASES) {
      const ms = entry?.[phase]
      if (ms !== undefined) sum[phase] = (sum[phase] ?? 0) + ms
    }
  }
  return sum
}

/** `times` with `wallMs` less the phases' sum added as `other` (never negative). */
export function withRest(times: PhaseTimes, wallMs: number): PhaseTimes {
  const counted = CASE_PHASES.reduce((sum, phase) => sum + (times[phase] ?? 0), 0)
  const rest = wallMs - counted
  return rest > 0 ? { ...times, other: (times.other ?? 0) + rest } : times
}
