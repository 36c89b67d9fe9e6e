// What a kernelBench produces: plain data that travels from the Vitest worker to the reporter in task.meta.
import type { Dtype } from '../spec/dtype.js'
import type { SampleSummary } from './stats.js'
import type { BoardSpread, ChangeVerdictKind, RunSpread } from './median-change.js'
import type { Calibration, CaseOutcome, DeviceReport, GpuRef, MeasuredCeilings } from './messages.js'
import type { MeasureOptions } from '../spec/options.js'
import type { PhaseTimes } from './phases.js'

export const RESULT_SCHEMA_VERSION = 1

export interface CaseResult {
  name: string
  params: Record<string, number>
  /** The GPU that ran the case (absent where no GPU ran it). */
  gpu?: GpuRef
  /** When the case held that GPU (absent where no GPU ran it). */
  claimed?: ClaimWindow
  flops: number
  /** Fewest bytes the case must move (each input read once, each output written once). */
  bytes: number
  outcome: CaseOutcome
  /** Statistics of the kept runtime samples, in ms (bench mode, verified cases only). */
  summary?: SampleSummary
  /** The CI guard's judgement (bench mode, timed cases only; see src/baseline/guard.ts). */
  verdict?: CaseVerdict
  /** Where the case's time went, ms per phase (src/shared/phases.ts). */
  phases?: PhaseTimes
  /** A paired A/B case (docs/ci-gate.md, "Paired A/B"): the base side, and the rounds the change is read off. */
  paired?: PairedCase
}

/** From when to when a case held its GPU, in ms since the Unix epoch (the run's processes share that clock). */
export interface ClaimWindow {
  fromMs: number
  toMs: number
}

/** The base side of a paired A/B case and the rounds both sides ran. */
export interface PairedCase {
  /** The base solution's outcome (with all its kept samples) and their statistics. */
  base: { outcome: CaseOutcome; summary?: SampleSummary }
  /**
   * Each round's median (ms) on each side, in order, and its block (both sides' buffers at one place); `calls` per
   * round; rounds `dropped` because a side kept no sample in them; `pairs`: the pairs of processes the blocks rotated
   * over (block b on pair b mod pairs; absent in older results: one); `perSide`: rounds a side per block (absent in
   * older results: two); `freshPair`: the pair opened on fresh processes once the others read a change, whose blocks
   * alone must read it too (absent where none was); `sharedPlaces`: both sides of every pair timed at the same places
   * (absent in older results: each at its own), and where they did not, `unsharedReason`: why a pair found no region to
   * share. Absent when a side failed.
   */
  rounds?: {
    base: number[]
    head: number[]
    block: number[]
    calls: number
    dropped: number
    pairs?: number
    perSide?: 1 | 2
    freshPair?: number
    sharedPlaces?: boolean
    unsharedReason?: string
  }
}

/** How a timed case compares with its stored baseline (src/baseline/verdict.ts compareToBaseline decides). */
export type BaselineComparison = ChangeVerdictKind | 'no-baseline' | 'other-gpu'

/**
 * A timed case against its stored baseline and the spec's floors (the CI guard, src/baseline/guard.ts).
 *
 * `kind` is compareToBaseline's, or 'updated' when this run (`vitest bench -u`) wrote the baseline instead of
 * comparing, or 'untracked' when the case has no FLOP count (no TFLOPS, so no baseline; floors still apply), or
 * 'above-roofline' when the case ran faster than the GPU's datasheet roofline allows (fails unless the spec allows
 * it; never compared with or recorded as a baseline).
 */
export interface CaseVerdict {
  kind: BaselineComparison | 'updated' | 'untracked' | 'above-roofline'
  /** measured / baseline − 1 in TFLOPS (negative = slower), when a baseline from this GPU was compared. */
  change?: number
  /** The interval of `change` at `confidence` (docs/ci-gate.md), when one exists. */
  interval?: { low: number; high: number; confidence: number }
  /** Why the comparison came out as it did: the interval against the tolerance, or why it cannot be judged. */
  reason?: string
  /** Paired A/B: the base the change is against (the result's `compare.base`); absent against a stored baseline. */
  against?: string
  /** The tolerance the change was judged against (fraction of speed). */
  tolerance?: number
  /** The spread between runs added to the interval: measured from the baseline's runs, or assumed. */
  runSpread?: RunSpread
  /** The spread between boards, where other boards' runs entered the comparison: measured from the recorded boards' runs, or assumed. */
  boardSpread?: BoardSpread
  message: string
  /** Whether the baseline comparison (or the roofline check) fails the run. */
  fails: boolean
  /** One message per violated floor (minTflops, …); each fails the run. */
  floors: string[]
}

/** A selected case the bench's `supports` declined. */
export interface UnsupportedCase {
  name: string
  reason: string
}

export interface KernelBenchResult {
  version: typeof RESULT_SCHEMA_VERSION
  bench: string
  problem: string
  /** The solution file as the spec named it. */
  solution: string
  dtype: Dtype
  mode: 'verify' | 'bench'
  /** The first GPU of the run's set: every GPU of the set is this model (src/engine/worker/gpu-pool.ts). */
  device?: DeviceReport
  /** Every GPU the run spread cases over; each case says which one ran it. */
  devices?: GpuRef[]
  arch?: string
  /** The GPU's measured ceilings (cuBLAS GEMM per dtype, device-to-device copy), when measured or cached (bench mode). */
  ceilings?: MeasuredCeilings
  /** What each timing mode reads on kernels of known duration on the GPU (its offsets), when measured or cached (bench mode). */
  calibration?: Calibration
  /** Why nothing ran (no GPU on this machine). */
  skipped?: string
  options: MeasureOptions
  /** The cases the bench would run, by name, where none ran (no GPU): what a GPU-less run selected. */
  selected?: string[]
  /** Selected cases the bench's `supports` declined, with why; absent when none. */
  unsupported?: UnsupportedCase[]
  cases: CaseResult[]
  /**
   * Paired A/B runs: the base the cases were timed against ('origin/main (1a2b3c4d5e)', or the spec's compareWith),
   * the tolerance, confidence and process spread of their verdicts (a result written before the process spread has
   * none, and none is added); `missing`: why the bench has no base (it ran unpaired).
   */
  compare?: { base: string; tolerance: number; confidence: number; processSpread?: number; missing?: string }
  /** The baseline file the cases were judged against, and whether this run wrote it (bench mode). */
  baseline?: { file: string; written: boolean }
  /** The bench's own time beyond its cases, ms per phase: waiting for its compiles. */
  phases?: PhaseTimes
}

/** What a result may hold about its GPU beyond the device report: the measured ceilings, the calibration. */
export type DeviceRecords = Pick<KernelBenchResult, 'ceilings' | 'calibration'>

/** The case a kernelBench runs now (index from 0 of total), while it runs under `vitest bench`; the reporter shows it. */
export interface KernelBenchProgress {
  case: string
  index: number
  total: number
}

/**
 * Why a case fails: a wrong answer, an error, or in bench mode the CI guard's failing verdict (baseline regression,
 * SOL above the roofline) and every violated floor. Empty for a case that passed.
 */
export function caseFailures(c: CaseResult): string[] {
  const o = c.outcome
  if (o.status === 'wrong') return [o.message]
  if (o.status === 'error') return [`${o.errorName}: ${o.message}`]
  const v = c.verdict
  if (!v) return []
  return v.fails ? [v.message, ...v.floors] : v.floors
}

/** One message for every case that failed (see caseFailures), or undefined when all passed. */
export function failureMessage(result: KernelBenchResult): string | undefined {
  const failures = result.cases.flatMap((c) => caseFailures(c).map((m) => `✗ case '${c.name}': ${m}`))
  if (failures.length === 0) return undefined
  const comparedFails = (v: CaseVerdict | undefined) => v?.fails === true && v.change !== undefined && v.against === undefined
  if (result.baseline && result.cases.some((c) => comparedFails(c.verdict))) {
    failures.push(`  baseline: ${result.baseline.file} (if the change is intended, update it with \`vitest bench -u\`)`)
  }
  return `${result.bench} (${result.problem}, ${result.dtype}):\n${failures.join('\n')}`
}
