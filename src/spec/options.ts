// Every option of the measurement protocol (docs/protocol.md), with its default. Plugin options apply to every
// bench; a bench's own spec overrides them.
import { didYouMean } from './suggest.js'

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
  /**
   * After timing, untimed runs of one call under CUPTI's range profiler (two per pass of the metrics, the second
   * kept, on the same inputs with L2 emptied before it): Nsight Compute's speed-of-light and occupancy figures per
   * kernel, and what bounds the case (docs/protocol.md, step 12a). No timed sample changes; where the counters cannot
   * be read the case times all the same and says why.
   */
  counters: boolean
  /**
   * Each timed call inside two NVTX ranges, 'kernel-bench' and '<bench> · <case> #<n>', so that Nsight tools can select
   * the solution's kernels and tell the calls apart (the `ncu` command). `events` timing only: the other modes use
   * CUPTI, which a profiler attached to the process holds.
   */
  nvtxRanges: boolean
}

export const DEFAULT_MEASURE_OPTIONS: MeasureOptions = {
  minIterations: 5,
  maxIterations: 10_000,
  targetCv: 0.01,
  minTimeMs: 50,
  longKernelMinTimeMs: 250,
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
  counters: false,
  nvtxRanges: false,
}

const FLUSH_MODES: readonly FlushMode[] = ['read', 'memset', 'none']
const PADDING_MODES: readonly PaddingMode[] = ['matmul', 'spin', 'none']
export const TIMING_MODES: readonly TimingMode[] = ['events', 'cupti', 'profiler', 'graph']

/** What is wrong with a value of an option ("must be a positive number (got 0)"), or undefined when it is fine. */
type Rule = (value: unknown) => string | undefined

const positive: Rule = (v) => (typeof v === 'number' && v > 0 ? undefined : `must be a positive number (got ${String(v)})`)
const zeroOrMore: Rule = (v) => (typeof v === 'number' && v >= 0 ? undefined : `must be zero or more (got ${String(v)})`)
const whole =
  (rule: Rule): Rule =>
  (v) =>
    rule(v) ?? (Number.isInteger(v) ? undefined : `must be a whole number (got ${String(v)})`)
const fraction: Rule = (v) => (typeof v === 'number' && v >= 0 && v < 1 ? undefined : `must be in [0, 1) (got ${String(v)})`)
const flag: Rule = (v) => (typeof v === 'boolean' ? undefined : `must be true or false (got ${String(v)})`)
const oneOf =
  (choices: readonly string[]): Rule =>
  (v) =>
    typeof v === 'string' && choices.includes(v) ? undefined : `must be one of ${choices.join(', ')} (got '${String(v)}')${didYouMean(String(v), choices)}`

const RULES: Record<keyof MeasureOptions, Rule> = {
  minIterations: whole(positive),
  maxIterations: whole(positive),
  targetCv: positive,
  minTimeMs: zeroOrMore,
  longKernelMinTimeMs: zeroOrMore,
  maxTimeMs: positive,
  globalWarmupCount: whole(zeroOrMore),
  globalWarmupSize: positive,
  warmupRuns: whole(zeroOrMore),
  flush: oneOf(FLUSH_MODES),
  flushFactor: positive,
  padding: oneOf(PADDING_MODES),
  paddingSize: positive,
  throttleFraction: fraction,
  caseTimeoutMs: positive,
  skipVerification: flag,
  disableTiming: flag,
  timing: oneOf(TIMING_MODES),
  graphBatch: whole(positive),
  auditStreams: flag,
  counters: flag,
  nvtxRanges: flag,
}

/** Throws `<label> must be …` where the value breaks its option's rule; `label` says where it came from. */
function checkOption(key: keyof MeasureOptions, value: unknown, label: string): void {
  const wrong = RULES[key](value)
  if (wrong) throw new Error(`${label} ${wrong}`)
}

/**
 * "unknown option 'targetCV' (did you mean 'targetCv'?)": `known` are the names the option could have meant. Where none
 * is close ('warmup' is four edits from 'warmupRuns'), every known name is listed, so the message still says what to
 * write.
 */
export function unknownOptionMessage(key: string, known: readonly string[]): string {
  return `unknown option '${key}'${didYouMean(key, known) || ` (the options are: ${known.join(', ')})`}`
}

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
  KERNELBENCH_MIN_TIME_MS: 'minTimeMs',
  KERNELBENCH_LONG_KERNEL_MIN_TIME_MS: 'longKernelMinTimeMs',
  KERNELBENCH_TIMING: 'timing',
  KERNELBENCH_DISABLE_TIMING: 'disableTiming',
  KERNELBENCH_SKIP_VERIFICATION: 'skipVerification',
  KERNELBENCH_COUNTERS: 'counters',
  KERNELBENCH_AUDIT_STREAMS: 'auditStreams',
  KERNELBENCH_NVTX_RANGES: 'nvtxRanges',
} as const satisfies Record<string, keyof MeasureOptions>

type Environment = Readonly<Record<string, string | undefined>>

/** A switch set in the environment: 1 or true, 0 or false; undefined when unset or empty. */
export function booleanFromEnv(env: Environment, variable: string): boolean | undefined {
  const text = env[variable]?.trim()
  if (!text) return undefined
  if (!['0', '1', 'true', 'false'].includes(text)) throw new Error(`${variable} must be 1 or 0 (got '${text}')`)
  return text === '1' || text === 'true'
}

/** The options the environment sets, each checked under its variable's name (KERNELBENCH_TIMING must be one of …). */
export function measureOptionsFromEnv(env: Environment): Partial<MeasureOptions> {
  const options: Record<string, unknown> = {}
  for (const [variable, key] of Object.entries(ENVIRONMENT_OPTIONS)) {
    const text = env[variable]?.trim()
    if (!text) continue
    const kind = typeof DEFAULT_MEASURE_OPTIONS[key]
    let value: unknown = text
    if (kind === 'boolean') value = booleanFromEnv(env, variable)
    else if (kind === 'number') {
      value = Number(text)
      if (!Number.isFinite(value)) throw new Error(`${variable} must be a number (got '${text}')`)
    }
    checkOption(key, value, variable)
    options[key] = value
  }
  return options as Partial<MeasureOptions>
}

const OPTION_NAMES = Object.keys(DEFAULT_MEASURE_OPTIONS)

/** Defaults, then plugin options, then the bench's own; every value checked so a typo fails with its name. */
export function resolveMeasureOptions(...layers: ReadonlyArray<Partial<MeasureOptions> | undefined>): MeasureOptions {
  const merged: MeasureOptions = { ...DEFAULT_MEASURE_OPTIONS }
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer ?? {})) {
      if (value === undefined) continue
      if (!Object.hasOwn(DEFAULT_MEASURE_OPTIONS, key)) throw new Error(unknownOptionMessage(key, OPTION_NAMES))
      ;(merged as unknown as Record<string, unknown>)[key] = value
    }
  }
  for (const [key, value] of Object.entries(merged)) checkOption(key as keyof MeasureOptions, value, `option ${key}`)
  if (merged.minIterations > merged.maxIterations) {
    throw new Error(`option minIterations (${merged.minIterations}) exceeds maxIterations (${merged.maxIterations})`)
  }
  if (merged.nvtxRanges && merged.timing !== 'events') {
    throw new Error(`option nvtxRanges needs timing 'events' (got '${merged.timing}', which uses CUPTI, and a profiler attached to the process holds CUPTI)`)
  }
  return merged
}
