// Every option of the measurement protocol (docs/protocol.md), with its default. Plugin options apply to every
// bench; a bench's own spec overrides them.

/** When the timing loop stops (engine/stopping.ts). */
export interface StoppingOptions {
  minIterations: number
  maxIterations: number
  targetCv: number
  minTimeMs: number
  /** The least time spent timing a kernel whose median sample is 1 ms or more (engine/stopping.ts says why). */
  longKernelMinTimeMs: number
  maxTimeMs: number
}

export type FlushMode = 'read' | 'memset' | 'none'
export type PaddingMode = 'matmul' | 'spin' | 'none'
/**
 * How a timed call is measured: CUDA events around it on the legacy stream, CUPTI's GPU timestamps of every
 * kernel it launched on any stream, Nsight Compute's gpu__time_duration summed over its kernels (CUPTI's range
 * profiler, in process), or a CUDA graph of `graphBatch` back-to-back calls (hot, batched time).
 */
export type TimingMode = 'events' | 'cupti' | 'profiler' | 'graph'

export interface MeasureOptions extends StoppingOptions {
  /** Square fp32 cuBLAS products run once per GPU process before anything is timed. */
  globalWarmupCount: number
  globalWarmupSize: number
  /** Untimed calls of each solution per case before timing: lazy module loading makes the first one slow. */
  warmupRuns: number
  /** L2 flush before every timed launch: read a scratch buffer (default), write it with memset, or none. */
  flush: FlushMode
  /** The flush buffer's size as a multiple of the L2 size. */
  flushFactor: number
  /**
   * Work queued before every timed launch so the GPU is busy while the host enqueues the next one: a matmul, or a
   * spin kernel holding the stream until a whole batch is queued (a solution that waits for the GPU falls back to
   * matmul). Ignored in `cupti` and `profiler` timing, which synchronize before each call instead.
   */
  padding: PaddingMode
  /** Edge of the square fp32 matmul used as padding. */
  paddingSize: number
  /** Samples taken below this fraction of the maximum SM clock are dropped (nvbench uses 0.75). */
  throttleFraction: number
  /** A case (verification and timing) that runs longer than this is killed and reported as a timeout. */
  caseTimeoutMs: number
  /** Skip verification entirely (reported loudly: a wrong kernel would get a number). */
  skipVerification: boolean
  /** Verify only, never time (a bench then reports no runtime). */
  disableTiming: boolean
  timing: TimingMode
  /** Calls captured in one CUDA graph in `graph` mode; a sample is the graph's time divided by this. */
  graphBatch: number
  /**
   * In `events` mode, check with CUPTI that all the GPU work of every timed call, on any stream, lies inside its
   * timed window (events on the legacy stream would not time the rest). Turn off where CUPTI is taken, e.g. under a
   * profiler.
   */
  auditStreams: boolean
}

export const DEFAULT_MEASURE_OPTIONS: MeasureOptions = {
  minIterations: 5,
  maxIterations: 10_000,
  targetCv: 0.01,
  minTimeMs: 50,
  longKernelMinTimeMs: 500,
  maxTimeMs: 10_000,
  globalWarmupCount: 10,
  globalWarmupSize: 5000,
  warmupRuns: 3,
  flush: 'read',
  flushFactor: 2,
  padding: 'matmul',
  paddingSize: 1024,
  throttleFraction: 0.75,
  caseTimeoutMs: 120_000,
  skipVerification: false,
  disableTiming: false,
  timing: 'events',
  graphBatch: 20,
  auditStreams: true,
}

const FLUSH_MODES: readonly FlushMode[] = ['read', 'memset', 'none']
const PADDING_MODES: readonly PaddingMode[] = ['matmul', 'spin', 'none']
export const TIMING_MODES: readonly TimingMode[] = ['events', 'cupti', 'profiler', 'graph']

/**
 * Environment knobs (in the spirit of Croqtile's): they override the config and every spec, so one run can be
 * changed without editing files. Unset or empty variables change nothing.
 */
export const ENVIRONMENT_OPTIONS = {
  KERNELBENCH_WARMUP: 'warmupRuns',
  KERNELBENCH_MIN_ITERATIONS: 'minIterations',
  KERNELBENCH_MAX_ITERATIONS: 'maxIterations',
  KERNELBENCH_TARGET_CV: 'targetCv',
  KERNELBENCH_MAX_TIME_MS: 'maxTimeMs',
  KERNELBENCH_TIMING: 'timing',
  KERNELBENCH_DISABLE_TIMING: 'disableTiming',
  KERNELBENCH_SKIP_VERIFICATION: 'skipVerification',
} as const satisfies Record<string, keyof MeasureOptions>

export function measureOptionsFromEnv(env: Readonly<Record<string, string | undefined>>): Partial<MeasureOptions> {
  const options: Record<string, unknown> = {}
  for (const [variable, key] of Object.entries(ENVIRONMENT_OPTIONS)) {
    const text = env[variable]?.trim()
    if (!text) continue
    const kind = typeof DEFAULT_MEASURE_OPTIONS[key]
    if (kind === 'boolean') {
      if (!['0', '1', 'true', 'false'].includes(text)) throw new Error(`${variable} must be 1 or 0 (got '${text}')`)
      options[key] = text === '1' || text === 'true'
    } else if (kind === 'number') {
      const value = Number(text)
      if (!Number.isFinite(value)) throw new Error(`${variable} must be a number (got '${text}')`)
      options[key] = value
    } else {
      options[key] = text
    }
  }
  return options as Partial<MeasureOptions>
}

/** Defaults, then plugin options, then the bench's own; every value checked so a typo fails with its name. */
export function resolveMeasureOptions(...layers: ReadonlyArray<Partial<MeasureOptions> | undefined>): MeasureOptions {
  const merged: MeasureOptions = { ...DEFAULT_MEASURE_OPTIONS }
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer ?? {})) {
      if (value === undefined) continue
      if (!Object.hasOwn(DEFAULT_MEASURE_OPTIONS, key)) throw new Error(`unknown option '${key}'`)
      ;(merged as unknown as Record<string, unknown>)[key] = value
    }
  }
  const positive: Array<keyof MeasureOptions> = [
    'minIterations',
    'maxIterations',
    'targetCv',
    'maxTimeMs',
    'flushFactor',
    'paddingSize',
    'caseTimeoutMs',
    'globalWarmupSize',
    'graphBatch',
  ]
  for (const key of positive) {
    const value = merged[key]
    if (typeof value !== 'number' || !(value > 0)) throw new Error(`option ${key} must be a positive number (got ${String(value)})`)
  }
  for (const key of ['minTimeMs', 'longKernelMinTimeMs', 'warmupRuns', 'globalWarmupCount'] as const) {
    if (!(merged[key] >= 0)) throw new Error(`option ${key} must be zero or more (got ${merged[key]})`)
  }
  if (merged.minIterations > merged.maxIterations) {
    throw new Error(`option minIterations (${merged.minIterations}) exceeds maxIterations (${merged.maxIterations})`)
  }
  if (!(merged.throttleFraction >= 0 && merged.throttleFraction < 1)) {
    throw new Error(`option throttleFraction must be in [0, 1) (got ${merged.throttleFraction})`)
  }
  if (!FLUSH_MODES.includes(merged.flush)) throw new Error(`option flush must be one of ${FLUSH_MODES.join(', ')} (got '${merged.flush}')`)
  if (!PADDING_MODES.includes(merged.padding)) {
    throw new Error(`option padding must be one of ${PADDING_MODES.join(', ')} (got '${merged.padding}')`)
  }
  if (!TIMING_MODES.includes(merged.timing)) throw new Error(`option timing must be one of ${TIMING_MODES.join(', ')} (got '${merged.timing}')`)
  for (const key of ['minIterations', 'maxIterations', 'warmupRuns', 'globalWarmupCount', 'graphBatch'] as const) {
    if (!Number.isInteger(merged[key])) throw new Error(`option ${key} must be a whole number (got ${merged[key]})`)
  }
  return merged
}
