/**
 * Pure verdict logic for the CI guard (docs/architecture.md): compare a measurement with its stored baseline, and
 * check explicit floors from the spec. No I/O, no GPU, no Vitest.
 */
import { formatFraction } from '../report/format.js'
import type { BaselineComparison } from '../shared/results.js'

/** One measured case. `cv` is the coefficient of variation of the runtime samples (0.01 = 1%). */
export interface Measurement {
  tflops: number
  runtimeMs: number
  cv: number
}

/** A stored baseline: the measurement plus the GPU model it was taken on and when (ISO 8601). */
export interface BaselineEntry extends Measurement {
  gpu: string
  measuredAt: string
}

export interface VerdictOptions {
  /** Smallest relative change that counts, whatever the noise (0.05 = 5%). */
  tolerance: number
  /** The bound is at least this many combined coefficients of variation. */
  noiseFactor: number
  /** When true, an improvement beyond the bound fails too (forces the baseline to be updated). */
  failOnImprovement: boolean
}

export const DEFAULT_VERDICT_OPTIONS: Readonly<VerdictOptions> = Object.freeze({
  tolerance: 0.05,
  noiseFactor: 3,
  failOnImprovement: false,
})

export type Verdict =
  | { kind: Extract<BaselineComparison, 'regression' | 'improvement' | 'same'>; change: number; bound: number; fails: boolean; message: string }
  | { kind: 'no-baseline'; fails: false; message: string }
  | { kind: 'other-gpu'; baselineGpu: string; fails: false; message: string }

/** TFLOPS with one decimal from 10 up, three significant digits below (bandwidth-bound kernels run well under 1). */
export function formatTflops(x: number): string {
  if (!Number.isFinite(x)) return String(x)
  return Math.abs(x) >= 10 ? x.toFixed(1) : x.toPrecision(3)
}

function resolveOptions(opts: Partial<VerdictOptions> | undefined): VerdictOptions {
  const o: VerdictOptions = {
    tolerance: opts?.tolerance ?? DEFAULT_VERDICT_OPTIONS.tolerance,
    noiseFactor: opts?.noiseFactor ?? DEFAULT_VERDICT_OPTIONS.noiseFactor,
    failOnImprovement: opts?.failOnImprovement ?? DEFAULT_VERDICT_OPTIONS.failOnImprovement,
  }
  if (!Number.isFinite(o.tolerance) || o.tolerance < 0) {
    throw new RangeError(`tolerance must be a finite number >= 0, got ${o.tolerance}`)
  }
  if (!Number.isFinite(o.noiseFactor) || o.noiseFactor < 0) {
    throw new RangeError(`noiseFactor must be a finite number >= 0, got ${o.noiseFactor}`)
  }
  return o
}

function checkMeasurement(what: string, m: Measurement, positiveTflops: boolean): void {
  if (!Number.isFinite(m.tflops) || m.tflops < 0 || (positiveTflops && m.tflops === 0)) {
    throw new RangeError(`${what} tflops must be a finite number ${positiveTflops ? '> 0' : '>= 0'}, got ${m.tflops}`)
  }
  if (!Number.isFinite(m.cv) || m.cv < 0) {
    throw new RangeError(`${what} cv must be a finite number >= 0, got ${m.cv}`)
  }
}

/**
 * Compare a measurement on `gpu` with its baseline.
 *
 * - No baseline: `no-baseline` (never fails).
 * - Baseline from another GPU model: `other-gpu`, not compared (never fails).
 * - Otherwise change = measured/baseline − 1 (TFLOPS; negative = slower), noise = √(cv_measured² + cv_baseline²),
 *   bound = max(tolerance, noiseFactor × noise). change < −bound is a regression (fails), change > bound an
 *   improvement (fails only with failOnImprovement), anything else (the bound itself included) is the same.
 *
 * Throws RangeError on non-finite or negative inputs (a baseline of 0 TFLOPS cannot be compared against).
 */
export function compareToBaseline(
  measured: Measurement,
  gpu: string,
  baseline: BaselineEntry | undefined,
  opts?: Partial<VerdictOptions>,
): Verdict {
  const o = resolveOptions(opts)
  checkMeasurement('measured', measured, false)
  const got = `${formatTflops(measured.tflops)} TFLOPS`
  if (baseline === undefined) {
    return {
      kind: 'no-baseline',
      fails: false,
      message: `${got}: no baseline on ${gpu}, nothing to compare (update baselines to record one)`,
    }
  }
  if (baseline.gpu !== gpu) {
    return {
      kind: 'other-gpu',
      baselineGpu: baseline.gpu,
      fails: false,
      message:
        `${got} on ${gpu}: the baseline (${formatTflops(baseline.tflops)} TFLOPS) was measured on ${baseline.gpu}, ` +
        `not compared (update baselines to record one for ${gpu})`,
    }
  }
  checkMeasurement('baseline', baseline, true)

  const change = measured.tflops / baseline.tflops - 1
  const noise = Math.sqrt(measured.cv * measured.cv + baseline.cv * baseline.cv)
  const bound = Math.max(o.tolerance, o.noiseFactor * noise)
  // A change exactly at the bound is 'same'; the slack absorbs rounding in the ratio (9.5 / 10 - 1 ≠ -0.05 in floats).
  const slack = 1e-9
  const kind = change < -bound - slack ? 'regression' : change > bound + slack ? 'improvement' : 'same'
  const fails = kind === 'regression' || (kind === 'improvement' && o.failOnImprovement)

  const rule = `max(tolerance ${formatFraction(o.tolerance)}, ${o.noiseFactor} × noise ${formatFraction(noise)})`
  let message =
    `${got} vs baseline ${formatTflops(baseline.tflops)} (${formatFraction(change, true)}), ` +
    `${kind === 'same' ? 'within' : 'beyond'} the bound ${formatFraction(bound)} = ${rule}`
  if (kind === 'regression') message = `regression: ${message}`
  else if (kind === 'improvement') {
    message = `improvement: ${message}${o.failOnImprovement ? '; fails because failOnImprovement is set (update the baseline)' : ''}`
  }
  return { kind, change, bound, fails, message }
}

/** Explicit floors from the spec. GFLOPS = TFLOPS × 1000; solPercent is % of the roofline (speed of light). */
export interface Floors {
  minTflops?: number
  minGflops?: number
  maxRuntimeMs?: number
  minSolPercent?: number
}

/**
 * One message per violated floor; empty when all hold. A value equal to its floor passes; a non-finite measured
 * value (NaN) violates any floor set on it.
 *
 * `minSolPercent` is skipped, with no message, when `solPercent` is undefined (no roofline known for this GPU):
 * floors are absolute CI gates and an unknown peak is not evidence of a slow kernel. Callers that want to flag it
 * should do so themselves.
 */
export function checkFloors(m: { tflops: number; runtimeMs: number; solPercent?: number }, floors: Floors): string[] {
  const out: string[] = []
  if (floors.minTflops !== undefined && !(m.tflops >= floors.minTflops)) {
    out.push(`${formatTflops(m.tflops)} TFLOPS is below the floor minTflops ${floors.minTflops}`)
  }
  if (floors.minGflops !== undefined && !(m.tflops * 1000 >= floors.minGflops)) {
    out.push(`${formatTflops(m.tflops * 1000)} GFLOPS is below the floor minGflops ${floors.minGflops}`)
  }
  if (floors.maxRuntimeMs !== undefined && !(m.runtimeMs <= floors.maxRuntimeMs)) {
    out.push(`runtime ${m.runtimeMs.toPrecision(4)} ms is above the ceiling maxRuntimeMs ${floors.maxRuntimeMs}`)
  }
  if (floors.minSolPercent !== undefined && m.solPercent !== undefined && !(m.solPercent >= floors.minSolPercent)) {
    out.push(`${m.solPercent.toFixed(1)}% of speed of light is below the floor minSolPercent ${floors.minSolPercent}`)
  }
  return out
}
