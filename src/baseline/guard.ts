/**
 * The CI guard (docs/architecture.md, "The CI guard"), worker side: judge a bench-mode KernelBenchResult against
 * the bench file's stored baseline, the spec's floors and the GPU's datasheet roofline, or, in update mode
 * (`vitest bench -u`), record its measurements as the new baseline (floors and the roofline still apply). Pure
 * apart from reading the baseline file and, in update mode, writing it atomically.
 */
import { formatFraction, formatTime } from '../report/format.js'
import { heldBackBytes, roofline, tflops, type Roofline } from '../report/metrics.js'
import { DTYPE_BYTES } from '../spec/dtype.js'
import { peaksFor } from '../report/peaks.js'
import type { CaseResult, CaseVerdict, KernelBenchResult } from '../shared/results.js'
import { pairedVerdict } from './paired-verdict.js'
import {
  BASELINE_DIR,
  baselinePath,
  lookup,
  mergeEntries,
  readBaseline,
  writeBaseline,
  type BaselineFile,
  type BaselineKey,
} from './store.js'
import {
  DEFAULT_VERDICT_OPTIONS,
  baselineRun,
  checkFloors,
  compareToBaseline,
  formatTflops,
  resolveVerdictOptions,
  type BaselineEntry,
  type BaselineRun,
  type Floors,
  type Measurement,
  type VerdictOptions,
} from './verdict.js'

/** The plugin's `baseline` option. */
export interface BaselineOptions extends Partial<VerdictOptions> {
  /** Where the baseline files live, relative to the project root (default '__kernelbench__'). Commit it. */
  dir?: string
  /** How many runs `vitest bench -u` keeps per case and board, the newest (default 5): their spread is the between-run term. */
  keepRuns?: number
}

/** BaselineOptions with every default applied: what the plugin passes to the workers. */
export interface BaselineSettings extends VerdictOptions {
  dir: string
  keepRuns: number
}

const DEFAULT_KEEP_RUNS = 5
const BASELINE_OPTION_KEYS: ReadonlySet<string> = new Set([...Object.keys(DEFAULT_VERDICT_OPTIONS), 'dir', 'keepRuns'])
/** Options of earlier versions, with what replaced them. */
const REPLACED_OPTIONS: Readonly<Record<string, string>> = {
  noiseFactor:
    "baseline option 'noiseFactor' is gone: the gate judges the interval of the change of the medians (docs/ci-gate.md); remove it, and set `confidence` (default 0.95) to widen or narrow the interval",
}

/** Defaults (DEFAULT_VERDICT_OPTIONS, dir '__kernelbench__', keepRuns 5) filled in; a bad or unknown option throws with its name. */
export function resolveBaselineSettings(options: BaselineOptions = {}): BaselineSettings {
  for (const key of Object.keys(options)) {
    if (REPLACED_OPTIONS[key]) throw new Error(REPLACED_OPTIONS[key])
    if (!BASELINE_OPTION_KEYS.has(key)) throw new Error(`unknown baseline option '${key}'`)
  }
  const { dir = BASELINE_DIR, keepRuns = DEFAULT_KEEP_RUNS, ...verdictOptions } = options
  let verdict: VerdictOptions
  try {
    verdict = resolveVerdictOptions(verdictOptions)
  } catch (error) {
    throw new Error(`baseline option ${(error as Error).message}`)
  }
  if (!Number.isInteger(keepRuns) || keepRuns < 1) throw new Error(`baseline option keepRuns must be an integer >= 1 (got ${String(keepRuns)})`)
  if (typeof dir !== 'string' || dir === '') {
    throw new Error(`baseline option dir must be a non-empty path (got ${JSON.stringify(dir)})`)
  }
  return { ...verdict, dir, keepRuns }
}

/** The spec's rules for the guard, checked once (src/vitest/resolve-spec.ts resolveSpec). */
export interface GuardRules {
  /** They apply to every timed case, in update mode too. */
  floors: Floors
  /** Accept a SOL above 100% of the datasheet roofline (a warning in the table) instead of failing the case. */
  allowAboveRoofline: boolean
}

export interface GuardContext {
  /** The bench file, absolute or relative to `root`: it names the baseline file (store.ts baselinePath). */
  benchFile: string
  /** The Vitest project root; the baseline directory is resolved against it. */
  root: string
  rules: GuardRules
  /** Default: resolveBaselineSettings(). */
  settings?: BaselineSettings
  /** Record the measurements as the new baseline instead of comparing (`vitest bench -u`). */
  update: boolean
  /** Timestamp for entries written in update mode (default: now). */
  now?: Date
}

/**
 * The measurement a case is judged by: TFLOPS from the median runtime, the samples' cv, the kept samples, the board
 * that ran it, the share of its time that was the host's (TimingResult.hostShare), and its board's probe time.
 */
export function caseMeasurement(c: CaseResult, board?: string): Measurement | undefined {
  if (c.outcome.status !== 'ok' || !c.summary || !c.outcome.timing) return undefined
  const { samplesMs, hostShare } = c.outcome.timing
  const boardProbeMs = c.gpu?.boardProbeMs
  return {
    tflops: tflops(c.flops, c.summary.median),
    runtimeMs: c.summary.median,
    cv: c.summary.cv,
    samplesMs,
    ...(board !== undefined && { board }),
    ...(hostShare !== undefined && { hostShare }),
    ...(boardProbeMs !== undefined && { boardProbeMs }),
  }
}

/** The newest `keep` runs of each board, in their order. */
function newestPerBoard(runs: readonly BaselineRun[], keep: number): BaselineRun[] {
  const left = new Map<string | undefined, number>()
  const kept: BaselineRun[] = []
  for (const run of [...runs].reverse()) {
    const room = left.get(run.board) ?? keep
    if (room > 0) kept.unshift(run)
    left.set(run.board, room - 1)
  }
  return kept
}

/**
 * This run recorded (`vitest bench -u`): appended to the entry's runs, the newest `keepRuns` of each board kept, so
 * that their spread measures the between-run term (and, over several boards, the between-board one). The runs start
 * again from this one when the previous entry was recorded on another GPU or before runs were kept, or when this run
 * is a regression or an improvement against them (the code's speed changed, and runs of the old code would only widen
 * the spread). A board's first run is kept beside the others whatever it reads: against other boards only, a change
 * is as likely the board's own speed (H200 boards sat up to 3.4% apart on some kernels), and dropping their runs would
 * leave those boards judged by this one.
 */
export function recordRun(m: Measurement, gpu: string, previous: BaselineEntry | undefined, settings: BaselineSettings, measuredAt: string): { entry: BaselineEntry; verdict: Omit<CaseVerdict, 'floors'> } {
  const run = baselineRun(m, settings.confidence, measuredAt)
  const entry = (runs: BaselineRun[]): BaselineEntry => ({ tflops: m.tflops, runtimeMs: m.runtimeMs, cv: m.cv, gpu, measuredAt, runs })
  const recorded = `baseline recorded: ${formatTflops(m.tflops)} TFLOPS ±${formatFraction(m.cv)} on ${gpu}`
  if (previous?.gpu !== gpu) return { entry: entry([run]), verdict: { kind: 'updated', fails: false, message: `${recorded} (no previous baseline on this GPU)` } }
  const against = compareToBaseline(m, gpu, previous, settings)
  if (!('change' in against)) throw new Error(`a baseline on ${gpu} was not compared: ${against.message}`)
  const earlier = previous.runs?.length ?? 0
  const changed = against.kind === 'regression' || against.kind === 'improvement'
  const firstOfBoard = m.board !== undefined && !previous.runs?.some((r) => r.board === m.board)
  const restart = !previous.runs
    ? 'the previous entry kept no runs, so they start again with this one'
    : changed && !firstOfBoard
      ? `${against.kind}: the ${earlier} earlier run${earlier === 1 ? ' is' : 's are'} dropped`
      : undefined
  const runs = previous.runs && !restart ? newestPerBoard([...previous.runs, run], settings.keepRuns) : [run]
  const kept = changed
    ? `${against.kind} against other boards, kept beside their runs as this board's first: ${runs.length} runs kept`
    : `${against.kind}: ${runs.length} runs kept`
  const was = `was ${formatTflops(m.tflops / (1 + against.change))}, ${formatFraction(against.change, true)}`
  return {
    entry: entry(runs),
    verdict: { kind: 'updated', change: against.change, fails: false, message: `${recorded} (${was}; ${restart ?? kept})` },
  }
}

/**
 * A case faster than the datasheet roofline allows, even with its outputs' writes left in the L2 (heldBackBytes): no
 * kernel can be, so the timing missed work or the solution skipped some. It is neither compared with nor recorded as
 * a baseline.
 */
function aboveRooflineVerdict(line: Roofline, medianMs: number): Omit<CaseVerdict, 'floors'> {
  return {
    kind: 'above-roofline',
    fails: true,
    message:
      `faster than this GPU can go: the measurement missed work or the solution skipped it ` +
      `(SOL ${line.solPercent.toFixed(1)}% of the datasheet roofline, its outputs' writes left in the L2: floor ` +
      `${formatTime(line.floorMs)}, measured median ${formatTime(medianMs)}; if this GPU's peak entry is wrong, set allowAboveRoofline)`,
  }
}

/**
 * The roofline of a case with its outputs' writes left in the L2 (heldBackBytes): the line no measurement may beat.
 * Without verified outputs (verification skipped) every byte counts.
 */
function strictRoofline(c: CaseResult, result: KernelBenchResult, runtimeMs: number, peaks: NonNullable<ReturnType<typeof peaksFor>>): Roofline {
  const outputs = c.outcome.status === 'ok' ? c.outcome.outputs : []
  const written = outputs.reduce((sum, o) => sum + o.elements * DTYPE_BYTES[result.dtype], 0)
  const held = heldBackBytes(written, result.device?.l2CacheBytes ?? 0)
  return roofline(c.flops, c.bytes - held, runtimeMs, result.dtype, peaks)
}

/**
 * `result` with a verdict on every timed case and the baseline file it used. Results that are not from bench
 * mode, were skipped, or have no device come back unchanged.
 *
 * Each case is keyed by bench name, case name, dtype and GPU name (never by position). Not in update mode, it
 * is compared with its baseline (compareToBaseline with the settings). In update mode, every timed case's run is
 * added to its entry (recordRun; others in the file are kept) in one atomic write. Cases without a FLOP
 * count have no TFLOPS and are 'untracked'. A case above 100% of the datasheet roofline, even with its outputs' writes
 * left in the L2, fails ('above-roofline') unless the rules allow it. Throws BaselineFileError when the baseline file is malformed.
 */
export function guardResult(result: KernelBenchResult, context: GuardContext): KernelBenchResult {
  const device = result.device
  if (result.mode !== 'bench' || result.skipped || !device) return result
  const gpu = device.name
  const settings = context.settings ?? resolveBaselineSettings()
  const file = baselinePath(context.root, context.benchFile, settings.dir)
  const previous: BaselineFile | undefined = readBaseline(file)
  const peaks = peaksFor(gpu)
  const measuredAt = (context.now ?? new Date()).toISOString()
  const updates: Array<[BaselineKey, BaselineEntry]> = []

  const judge = (c: CaseResult, m: Measurement): Omit<CaseVerdict, 'floors'> => {
    // A paired case is judged against its base, timed beside it, and never recorded as a baseline.
    if (c.paired && result.compare) return pairedVerdict(c.paired, result.compare)
    if (!(Number.isFinite(m.tflops) && m.tflops > 0)) {
      return { kind: 'untracked', fails: false, message: 'no FLOP count, so no TFLOPS to compare with a baseline' }
    }
    const key: BaselineKey = { bench: result.bench, caseName: c.name, dtype: result.dtype, gpu }
    const baseline = lookup(previous, key)
    if (context.update) {
      const recorded = recordRun(m, gpu, baseline, settings, measuredAt)
      updates.push([key, recorded.entry])
      return recorded.verdict
    }
    const v = compareToBaseline(m, gpu, baseline, settings)
    if (!('change' in v)) return { kind: v.kind, message: v.message, fails: v.fails }
    return {
      kind: v.kind,
      change: v.change,
      interval: { low: v.interval.low, high: v.interval.high, confidence: v.interval.confidence },
      reason: v.reason,
      tolerance: settings.tolerance,
      runSpread: v.runSpread,
      ...(v.boardSpread && { boardSpread: v.boardSpread }),
      message: v.message,
      fails: v.fails,
    }
  }

  const cases = result.cases.map((c): CaseResult => {
    // The board that timed the case: in a run spread over several GPUs, not always the first one's (result.device).
    const m = caseMeasurement(c, c.gpu?.uuid ?? device.uuid)
    if (!m) return c
    const line = peaks && roofline(c.flops, c.bytes, m.runtimeMs, result.dtype, peaks)
    const strict = peaks && line !== undefined && line.solPercent > 100 ? strictRoofline(c, result, m.runtimeMs, peaks) : undefined
    const impossible = strict !== undefined && strict.solPercent > 100 && !context.rules.allowAboveRoofline
    const verdict = impossible ? aboveRooflineVerdict(strict, m.runtimeMs) : judge(c, m)
    return { ...c, verdict: { ...verdict, floors: checkFloors({ ...m, solPercent: line?.solPercent }, context.rules.floors) } }
  })
  if (updates.length > 0) writeBaseline(file, mergeEntries(previous, updates))
  return { ...result, cases, baseline: { file, written: updates.length > 0 } }
}
