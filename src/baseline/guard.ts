/**
 * The CI guard (docs/architecture.md, "The CI guard"), worker side: judge a bench-mode KernelBenchResult against
 * the bench file's stored baseline, the spec's floors and the GPU's datasheet roofline, or, in update mode
 * (`vitest bench -u`), record its measurements as the new baseline (floors and the roofline still apply). Pure
 * apart from reading the baseline file and, in update mode, writing it atomically.
 */
import { formatFraction, formatTime } from '../report/format.js'
import { roofline, tflops, type Roofline } from '../report/metrics.js'
import { peaksFor } from '../report/peaks.js'
import type { CaseResult, CaseVerdict, KernelBenchResult } from '../shared/results.js'
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
  checkFloors,
  compareToBaseline,
  formatTflops,
  type BaselineEntry,
  type Floors,
  type Measurement,
  type VerdictOptions,
} from './verdict.js'

/** The plugin's `baseline` option. */
export interface BaselineOptions extends Partial<VerdictOptions> {
  /** Where the baseline files live, relative to the project root (default '__kernelbench__'). Commit it. */
  dir?: string
}

/** BaselineOptions with every default applied: what the plugin passes to the workers. */
export interface BaselineSettings extends VerdictOptions {
  dir: string
}

const BASELINE_OPTION_KEYS: ReadonlySet<string> = new Set(['tolerance', 'noiseFactor', 'failOnImprovement', 'dir'])

/** Defaults (DEFAULT_VERDICT_OPTIONS, dir '__kernelbench__') filled in; a bad or unknown option throws with its name. */
export function resolveBaselineSettings(options: BaselineOptions = {}): BaselineSettings {
  for (const key of Object.keys(options)) {
    if (!BASELINE_OPTION_KEYS.has(key)) throw new Error(`unknown baseline option '${key}'`)
  }
  const settings: BaselineSettings = {
    tolerance: options.tolerance ?? DEFAULT_VERDICT_OPTIONS.tolerance,
    noiseFactor: options.noiseFactor ?? DEFAULT_VERDICT_OPTIONS.noiseFactor,
    failOnImprovement: options.failOnImprovement ?? DEFAULT_VERDICT_OPTIONS.failOnImprovement,
    dir: options.dir ?? BASELINE_DIR,
  }
  for (const key of ['tolerance', 'noiseFactor'] as const) {
    const value = settings[key]
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new Error(`baseline option ${key} must be a finite number >= 0 (got ${String(value)})`)
    }
  }
  if (typeof settings.failOnImprovement !== 'boolean') {
    throw new Error(`baseline option failOnImprovement must be a boolean (got ${String(settings.failOnImprovement)})`)
  }
  if (typeof settings.dir !== 'string' || settings.dir === '') {
    throw new Error(`baseline option dir must be a non-empty path (got ${JSON.stringify(settings.dir)})`)
  }
  return settings
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

/** The measurement a case is judged by: TFLOPS from the median runtime, and the samples' cv as its noise. */
export function caseMeasurement(c: CaseResult): Measurement | undefined {
  if (c.outcome.status !== 'ok' || !c.summary) return undefined
  return { tflops: tflops(c.flops, c.summary.median), runtimeMs: c.summary.median, cv: c.summary.cv }
}

function updatedVerdict(m: Measurement, gpu: string, previous: BaselineEntry | undefined): Omit<CaseVerdict, 'floors'> {
  const recorded = `baseline recorded: ${formatTflops(m.tflops)} TFLOPS ±${formatFraction(m.cv)} on ${gpu}`
  if (previous?.gpu !== gpu) return { kind: 'updated', fails: false, message: `${recorded} (no previous baseline on this GPU)` }
  const change = m.tflops / previous.tflops - 1
  return {
    kind: 'updated',
    change,
    fails: false,
    message: `${recorded} (was ${formatTflops(previous.tflops)}, ${formatFraction(change, true)})`,
  }
}

/**
 * A case faster than the datasheet roofline allows: no kernel can be, so the timing missed work or the solution
 * skipped some. It is neither compared with nor recorded as a baseline.
 */
function aboveRooflineVerdict(line: Roofline, medianMs: number): Omit<CaseVerdict, 'floors'> {
  return {
    kind: 'above-roofline',
    fails: true,
    message:
      `faster than this GPU can go: the measurement missed work or the solution skipped it ` +
      `(SOL ${line.solPercent.toFixed(1)}% of the datasheet roofline: floor ${formatTime(line.floorMs)}, measured median ` +
      `${formatTime(medianMs)}; if this GPU's peak entry is wrong, set allowAboveRoofline)`,
  }
}

/**
 * `result` with a verdict on every timed case and the baseline file it used. Results that are not from bench
 * mode, were skipped, or have no device come back unchanged.
 *
 * Each case is keyed by bench name, case name, dtype and GPU name (never by position). Not in update mode, it
 * is compared with its baseline (compareToBaseline with the settings). In update mode, the measurements of all
 * timed cases replace their entries (others in the file are kept) in one atomic write. Cases without a FLOP
 * count have no TFLOPS and are 'untracked'. A case above 100% of the datasheet roofline fails ('above-roofline')
 * unless the rules allow it. Throws BaselineFileError when the baseline file is malformed.
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
    if (!(Number.isFinite(m.tflops) && m.tflops > 0)) {
      return { kind: 'untracked', fails: false, message: 'no FLOP count, so no TFLOPS to compare with a baseline' }
    }
    const key: BaselineKey = { bench: result.bench, caseName: c.name, dtype: result.dtype, gpu }
    const baseline = lookup(previous, key)
    if (context.update) {
      updates.push([key, { ...m, gpu, measuredAt }])
      return updatedVerdict(m, gpu, baseline)
    }
    const v = compareToBaseline(m, gpu, baseline, settings)
    return { kind: v.kind, ...('change' in v && { change: v.change }), message: v.message, fails: v.fails }
  }

  const cases = result.cases.map((c): CaseResult => {
    const m = caseMeasurement(c)
    if (!m) return c
    const line = peaks && roofline(c.flops, c.bytes, m.runtimeMs, result.dtype, peaks)
    const impossible = line !== undefined && line.solPercent > 100 && !context.rules.allowAboveRoofline
    const verdict = impossible ? aboveRooflineVerdict(line, m.runtimeMs) : judge(c, m)
    return { ...c, verdict: { ...verdict, floors: checkFloors({ ...m, solPercent: line?.solPercent }, context.rules.floors) } }
  })
  if (updates.length > 0) writeBaseline(file, mergeEntries(previous, updates))
  return { ...result, cases, baseline: { file, written: updates.length > 0 } }
}
