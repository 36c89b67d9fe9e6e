// Every option of the measurement protocol, with the defaults DESIGN.md §3 names. Plugin options apply to every
// bench; a bench's own spec overrides them.
import type { StoppingOptions } from './engine/stopping.js'

export type FlushMode = 'read' | 'memset' | 'none'
export type PaddingMode = 'matmul' | 'spin' | 'none'

export interface MeasureOptions extends StoppingOptions {
  /** Square fp32 cuBLAS products run once per GPU process before anything is timed (DESIGN §3.1). */
  globalWarmupCount: number
  globalWarmupSize: number
  /** Untimed calls of each solution per case before timing: lazy module loading makes the first one slow. */
  warmupRuns: number
  /** L2 flush before every timed launch: read a scratch buffer (default), write it with memset, or none. */
  flush: FlushMode
  /** The flush buffer's size as a multiple of the L2 size. */
  flushFactor: number
  /** Work queued before every timed launch so the GPU is busy while the host enqueues the next one. */
  padding: PaddingMode
  /** Edge of the square fp32 matmul used as padding. */
  paddingSize: number
  /** Samples taken below this fraction of the maximum SM clock are dropped (nvbench uses 0.75). */
  throttleFraction: number
  /** A case (verification and timing) that runs longer than this is killed and reported as a timeout. */
  caseTimeoutMs: number
  /** Skip verification entirely (reported loudly: a wrong kernel would get a number). */
  skipVerification: boolean
}

export const DEFAULT_MEASURE_OPTIONS: MeasureOptions = {
  minIterations: 5,
  maxIterations: 10_000,
  targetCv: 0.01,
  minTimeMs: 50,
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
}

const FLUSH_MODES: readonly FlushMode[] = ['read', 'memset', 'none']
const PADDING_MODES: readonly PaddingMode[] = ['matmul', 'spin', 'none']

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
  const positive: Array<keyof MeasureOptions> = ['minIterations', 'maxIterations', 'targetCv', 'maxTimeMs', 'flushFactor', 'paddingSize', 'caseTimeoutMs', 'globalWarmupSize']
  for (const key of positive) {
    const value = merged[key]
    if (typeof value !== 'number' || !(value > 0)) throw new Error(`option ${key} must be a positive number (got ${String(value)})`)
  }
  for (const key of ['minTimeMs', 'warmupRuns', 'globalWarmupCount'] as const) {
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
  return merged
}
