// The table a kernel engineer reads: one row per case with runtime, throughput, bandwidth and roofline figures,
// plus a geometric-mean line and the device header. Pure: it renders recorded results.
//
// The figures and cell texts are shared with the Markdown report (markdown.ts) and the JSON file (json.ts); each
// cell carries a tone that the terminal turns into a colour and Markdown into emphasis.
import pc from 'picocolors'
import { geometricMean } from '../shared/stats.js'
import type { StopReason } from '../shared/stopping.js'
import { formatChangeInterval, formatLevel } from '../shared/median-change.js'
import type { DeviceReport, GpuRef, MeasuredCeilings } from '../shared/messages.js'
import { caseFailures, type CaseResult, type CaseVerdict, type DeviceRecords, type KernelBenchResult } from '../shared/results.js'
import { calibrationLine, timerOffsetMs } from './calibration.js'
import { ceilingPeaks, ceilingsLine, peaksNote } from './ceilings.js'
import { boundCell, caseCounters } from './counters.js'
import {
  formatBandwidth,
  formatBytes,
  formatCv,
  formatFlops,
  formatFraction,
  formatOffset,
  formatPercent,
  formatTime,
  intervalReach,
  renderTable,
  type Align,
} from './format.js'
import { gbPerSecond, roofline, type Roofline } from './metrics.js'
import { peaksFor, type GpuPeaks } from './peaks.js'

const STOP_LABEL: Record<StopReason, string> = {
  'target-cv': 'cv',
  'noise-stable': 'stable',
  'max-iterations': 'max-n',
  'max-time': 'max-time',
  'paired-interval': 'a/b',
  'paired-limit': 'a/b-max',
}

export const VERIFICATION_SKIPPED_WARNING = 'VERIFICATION SKIPPED: these numbers may come from a wrong kernel'
export const SOL_WARNING =
  '⚠ SOL above 100%: faster than every byte through DRAM allows; accepted as the outputs\' writes fit in the L2 (a kernel can end before they reach DRAM) or as allowAboveRoofline is set'
export const SOL_FAILURE =
  '✗ SOL above 100% fails the case: faster than this GPU can go, so the measurement missed work or the solution skipped it'
/** Marks a row whose case fell back from spin to matmul padding; the line under the table says why. */
export const PADDING_FALLBACK_MARK = '†'
/** Marks a row whose median is a few times its timing mode's offset at most; the line under the table says so. */
export const OFFSET_MARK = '‡'
/** A median within this many times its timing mode's calibrated offset is marked: the offset is a large share of it. */
export const OFFSET_SHARE = 3

/**
 * The device in one line: model (and which GPUs, where a run spread cases over several of that model), SMs, L2,
 * memory, clocks, driver, runtime and compile target. The clock is the first GPU's.
 */
export function deviceLine(device: DeviceReport, arch: string, devices: readonly GpuRef[] = []): string {
  const clock = Number.isFinite(device.startSmClockMHz) ? `${device.startSmClockMHz} MHz now, ` : ''
  const model = devices.length > 1 ? `${devices.length} × ${device.name} (GPUs ${devices.map((d) => d.index).join(', ')})` : device.name
  return (
    `${model}  ·  ${device.multiProcessors} SMs  ·  L2 ${formatBytes(device.l2CacheBytes)}  ·  ` +
    `${formatBytes(device.totalMemoryBytes)}  ·  SM clock ${clock}${device.maxSmClockMHz} MHz max  ·  ` +
    `driver ${device.driverRelease ?? device.driverVersion} (CUDA ${device.driverVersion})  ·  runtime ${device.runtimeVersion}  ·  ${arch}`
  )
}

/** Why clocks are unknown, when NVML could not be used. */
function clocksUnknownNote(device: DeviceReport): string | undefined {
  return device.nvmlError ? `clocks unknown (no throttle filtering): ${device.nvmlError}` : undefined
}

/** What the reader must know about the device's figures: where the peaks come from, why clocks are unknown. */
export function deviceNotes(device: DeviceReport, ceilings: MeasuredCeilings | undefined): string[] {
  return [peaksNote(device.name, ceilings), clocksUnknownNote(device)].filter((note) => note !== undefined)
}

/** The lines under the device line for its measured ceilings and its calibration, where there are some. */
export function deviceRecordLines({ ceilings, calibration }: DeviceRecords): string[] {
  return [...(ceilings ? [ceilingsLine(ceilings)] : []), ...(calibration ? [calibrationLine(calibration)] : [])]
}

/** The device line, its measured ceilings and calibration (when there are some) and its notes. */
export function renderDeviceHeader(device: DeviceReport, arch: string, records: DeviceRecords = {}, devices?: readonly GpuRef[]): string {
  return [
    pc.bold(deviceLine(device, arch, devices)),
    ...deviceRecordLines(records),
    ...deviceNotes(device, records.ceilings).map((note) => pc.yellow(note)),
  ].join('\n')
}

/** The numbers a timed case is reported with, all from its median runtime. */
export interface CaseFigures {
  medianMs: number
  cv: number
  flopsPerSecond: number
  gbPerSecond: number
  /** Against the datasheet peaks; undefined when the GPU is not in the peak table. */
  roofline?: Roofline
  /** Against the measured ceilings ("% of practical peak"); undefined when none were measured. */
  practical?: Roofline
  /** Mean SM clock of the kept samples (NaN when NVML is unavailable). */
  smClockMHz: number
  samples: number
  droppedThrottled: number
  /** Samples dropped for foreign GPU work or a host stall inside their timed window. */
  droppedInterference: number
  stopReason: StopReason
  /** Why spin padding was abandoned for matmul padding, when it was. */
  paddingFallback?: string
  /** The timing mode's calibrated offset, ms, when the median is within OFFSET_SHARE times it (the row is marked). */
  largeOffsetMs?: number
  /** Why the figures are not to be trusted (caseFlags); empty for nearly every case of honest code. */
  flags: Flag[]
}

/** What makes a timed case's figures ones to distrust: the charts draw it orange, the tables mark the cell. */
export type FlagKind = 'sol' | 'noise' | 'dropped' | 'unverified'

export interface Flag {
  kind: FlagKind
  /** In words, for a hover text or a note. */
  reason: string
}

/**
 * A stop by the time or iteration limit with a CV above this many times targetCv is flagged. A stop there means the
 * noise estimate was still moving (drift, clock steps). Within twice the target, sampling stopped short of a spread
 * close to the one asked for; beyond it the spread is the kernel's or the machine's, and the median may move between
 * runs. A noise-stable stop above the target is not flagged: more samples would not have lowered its CV.
 */
export const LIMIT_CV_FACTOR = 2
/**
 * More than this share of the samples taken dropped (throttled, or screened for a host stall or other GPU work) is
 * flagged. Routine host stalls cost a few percent (2 to 5 of 126 to 272 samples in the recorded H200 runs); past a
 * tenth, the disturbance ran through the timing and the kept samples are those that escaped it, not a fair draw.
 */
export const DROPPED_SHARE = 0.1

/** Samples dropped for throttling and for interference together (the tables' `n (-k)`). */
export const droppedSamples = (f: Pick<CaseFigures, 'droppedThrottled' | 'droppedInterference'>): number => f.droppedThrottled + f.droppedInterference

const isLimitStop = (reason: StopReason) => reason === 'max-time' || reason === 'max-iterations'

/**
 * The one rule for 'flagged' (charts, kernel table, Markdown): SOL above 100% of the datasheet roofline, a limit stop
 * with the CV far above target, a large share of samples dropped, or verification skipped. A noise-stable stop and a
 * few dropped samples are normal and stay details (the stop and n columns, the hover text).
 */
export function caseFlags(options: KernelBenchResult['options'], f: Omit<CaseFigures, 'flags'>): Flag[] {
  const dropped = droppedSamples(f)
  const taken = f.samples + dropped
  const flags: Flag[] = []
  if (f.roofline !== undefined && f.roofline.solPercent > 100) {
    flags.push({ kind: 'sol', reason: 'SOL above 100%: the measurement missed work or hit a warm cache' })
  }
  if (isLimitStop(f.stopReason) && f.cv > LIMIT_CV_FACTOR * options.targetCv) {
    const limit = f.stopReason === 'max-time' ? 'the time limit' : 'the iteration limit'
    flags.push({ kind: 'noise', reason: `noisy: stopped at ${limit} with the CV ${formatCv(f.cv)}, over ${LIMIT_CV_FACTOR}× the target ${formatFraction(options.targetCv)}` })
  }
  if (dropped > DROPPED_SHARE * taken) {
    flags.push({ kind: 'dropped', reason: `${dropped} of ${taken} samples dropped (over ${formatFraction(DROPPED_SHARE)}): throttling or interference ran through the timing` })
  }
  if (options.skipVerification) flags.push({ kind: 'unverified', reason: 'verification skipped' })
  return flags
}

/** Whether the case has a flag of this kind. */
export const flagged = (f: CaseFigures, kind: FlagKind): boolean => f.flags.some((flag) => flag.kind === kind)

/** The calibrated offset of the result's timing mode on its GPU, when there is a calibration. */
function modeOffsetMs(result: KernelBenchResult): number | undefined {
  return result.calibration && timerOffsetMs(result.calibration, result.options.timing)
}

/** Whether an offset is a large share of a median: the median is within OFFSET_SHARE times its size. */
export function isLargeOffset(offsetMs: number | undefined, medianMs: number): offsetMs is number {
  return offsetMs !== undefined && offsetMs !== 0 && medianMs <= OFFSET_SHARE * Math.abs(offsetMs)
}

/** The figures of a timed case, or undefined for a case that was not timed (wrong, error, verify mode). */
export function caseFigures(result: KernelBenchResult, c: CaseResult): CaseFigures | undefined {
  const s = c.summary
  const t = c.outcome.status === 'ok' ? c.outcome.timing : undefined
  if (!s || !t) return undefined
  const against = (peaks: GpuPeaks | undefined) => peaks && roofline(c.flops, c.bytes, s.median, result.dtype, peaks)
  const offset = modeOffsetMs(result)
  const figures = {
    medianMs: s.median,
    cv: s.cv,
    flopsPerSecond: c.flops / (s.median * 1e-3),
    gbPerSecond: gbPerSecond(c.bytes, s.median),
    roofline: against(result.device && peaksFor(result.device.name)),
    practical: against(result.ceilings && ceilingPeaks(result.ceilings)),
    smClockMHz: t.meanSmClockMHz,
    samples: s.n,
    droppedThrottled: t.droppedThrottled,
    droppedInterference: t.droppedInterference ?? 0,
    stopReason: t.stopReason,
    ...(t.paddingFallback !== undefined && { paddingFallback: t.paddingFallback }),
    ...(isLargeOffset(offset, s.median) && { largeOffsetMs: offset }),
  }
  return { ...figures, flags: caseFlags(result.options, figures) }
}

/** How a cell stands out: the terminal colours it, Markdown emphasises 'bad' and 'alarm'. */
export type Tone = 'plain' | 'dim' | 'good' | 'warn' | 'bad' | 'alarm'

export interface Cell {
  text: string
  tone: Tone
}

const cell = (text: string, tone: Tone = 'plain'): Cell => ({ text, tone })

/** The figure columns of a timed row, in table order. */
const FIGURE_COLUMNS = ['median', 'cv', 'throughput', 'bandwidth', 'peak', 'bw', 'sol', 'practical', 'bound', 'clock', 'gpu', 'n', 'stop'] as const
export type FigureColumn = (typeof FIGURE_COLUMNS)[number]

/**
 * The columns a result's table has: 'practical' only where the GPU's ceilings were measured, 'bound' only where
 * some case has counters (or says why it has none), 'gpu' (which GPU timed the case) only where the run spread
 * cases over several.
 */
export function figureColumns(result: KernelBenchResult): FigureColumn[] {
  const shown: Partial<Record<FigureColumn, boolean>> = {
    practical: result.ceilings !== undefined,
    bound: result.cases.some((c) => caseCounters(c) !== undefined),
    gpu: (result.devices?.length ?? 1) > 1,
  }
  return FIGURE_COLUMNS.filter((k) => shown[k] ?? true)
}

/** A timed case has a cell per figure column; any other case one status cell (wrong, error, verified). */
export type CaseCells = { figures: Record<FigureColumn, Cell> } | { status: Cell }

export function caseCells(result: KernelBenchResult, c: CaseResult): CaseCells {
  const o = c.outcome
  if (o.status === 'wrong') return { status: cell('✗ wrong answer', 'bad') }
  if (o.status === 'error') return { status: cell(`✗ ${o.errorName}`, 'bad') }
  const f = caseFigures(result, c)
  if (!f) return { status: cell('✓ verified', 'good') }
  // A GPU missing from the datasheet table is judged against its measured ceilings. Only beating the datasheet
  // proves a wrong measurement: a kernel may beat cuBLAS or cudaMemcpy.
  const line = f.roofline ?? f.practical
  const sol = line === undefined ? cell('—') : flagged(f, 'sol') ? cell(`${formatPercent(line.solPercent)} ⚠`, 'alarm') : cell(formatPercent(line.solPercent))
  const dropped = droppedSamples(f)
  const counters = caseCounters(c)
  const marks = [...(f.paddingFallback === undefined ? [] : [PADDING_FALLBACK_MARK]), ...(f.largeOffsetMs === undefined ? [] : [OFFSET_MARK])]
  return {
    figures: {
      median: cell([formatTime(f.medianMs), ...marks].join(' '), marks.length > 0 ? 'warn' : 'plain'),
      cv: cell(formatCv(f.cv), flagged(f, 'noise') ? 'warn' : 'plain'),
      throughput: cell(formatFlops(f.flopsPerSecond)),
      bandwidth: cell(formatBandwidth(f.gbPerSecond)),
      peak: cell(formatPercent(line?.computePercent)),
      bw: cell(formatPercent(line?.bandwidthPercent)),
      sol,
      practical: cell(formatPercent(f.practical?.solPercent)),
      bound: counters ? cell(boundCell(counters), counters.status === 'ok' ? 'plain' : 'dim') : cell('—'),
      clock: cell(Number.isFinite(f.smClockMHz) ? `${Math.round(f.smClockMHz)}` : '—'),
      gpu: cell(c.gpu === undefined ? '—' : `${c.gpu.index}`),
      n: cell(dropped ? `${f.samples} (-${dropped})` : `${f.samples}`, flagged(f, 'dropped') ? 'warn' : 'plain'),
      stop: cell(STOP_LABEL[f.stopReason]),
    },
  }
}

/** Whether any timed case ran faster than the roofline allows. */
export function hasSolAbove100(result: KernelBenchResult): boolean {
  return result.cases.some((c) => {
    const f = caseFigures(result, c)
    return f !== undefined && flagged(f, 'sol')
  })
}

/** Which case fails the guard by running faster than the roofline: it has no allowAboveRoofline to excuse it. */
function refusedAboveRoofline(result: KernelBenchResult): boolean {
  return result.cases.some((c) => c.verdict?.kind === 'above-roofline')
}

/** The line about a SOL above 100%: the failure, or the warning where allowAboveRoofline accepted it. */
export function solNote(result: KernelBenchResult): string | undefined {
  if (refusedAboveRoofline(result)) return SOL_FAILURE
  return hasSolAbove100(result) ? SOL_WARNING : undefined
}

/** The lines under the table for cases that fell back from spin to matmul padding, each with its reason. */
export function paddingFallbackNotes(result: KernelBenchResult): string[] {
  return result.cases.flatMap((c) => {
    const reason = caseFigures(result, c)?.paddingFallback
    return reason === undefined ? [] : [`${PADDING_FALLBACK_MARK} ${c.name}: ${reason}`]
  })
}

/**
 * The line under the table for the paired cases whose sides found no region of memory to share, one a reason: their
 * memory-bound kernels read wider, each side's places being its own (docs/ci-gate.md, "Shared places").
 */
export function unsharedPlacesNotes(result: KernelBenchResult): string[] {
  const byReason = new Map<string, string[]>()
  for (const c of result.cases) {
    const rounds = c.paired?.rounds
    if (rounds?.sharedPlaces !== false) continue
    const reason = rounds.unsharedReason ?? 'no reason given'
    byReason.set(reason, [...(byReason.get(reason) ?? []), c.name])
  }
  return [...byReason].map(
    ([reason, names]) => `places not shared in ${names.join(', ')}: ${reason}; each side timed at places of its own, which widens the interval of a memory-bound kernel`,
  )
}

/**
 * The line under the table for the cases whose median is within OFFSET_SHARE times the timing mode's calibrated
 * offset on this GPU: that much of each number is the timer's, not the kernel's.
 */
export function largeOffsetNote(result: KernelBenchResult): string | undefined {
  const offset = modeOffsetMs(result)
  const marked = result.cases.filter((c) => caseFigures(result, c)?.largeOffsetMs !== undefined)
  if (offset === undefined || marked.length === 0) return undefined
  const mode = result.options.timing
  const advice = mode === 'profiler' ? 'compare within one mode' : "use timing 'profiler' (or compare within one mode)"
  const these = marked.length === 1 ? 'this number' : 'these numbers'
  return (
    `${OFFSET_MARK} ${marked.map((c) => c.name).join(', ')}: the mode's offset ('${mode}', ${formatOffset(offset)} on this GPU) ` +
    `is a large share of ${these}: ${advice}`
  )
}

/** The lines under the table for cases whose counters are missing: why, and how to allow them (one line per reason). */
export function countersNotes(result: KernelBenchResult): string[] {
  const byReason = new Map<string, string[]>()
  for (const c of result.cases) {
    const counters = caseCounters(c)
    if (counters?.status === 'ok' || !counters) continue
    byReason.set(counters.reason, [...(byReason.get(counters.reason) ?? []), c.name])
  }
  return [...byReason].map(([reason, cases]) => `no counters for ${cases.join(', ')}: ${reason}`)
}

/** A verdict's change as the tables show it: with its interval when the guard compared one, '-3.1% [-3.6%, -2.6%]'. */
export function baselineChange(v: CaseVerdict): string | undefined {
  if (v.change === undefined) return undefined
  return v.interval ? formatChangeInterval({ change: v.change, ...v.interval }) : formatFraction(v.change, true)
}

/** More cases than this whose only doubt is an interval across the tolerance share one line under the table. */
const STRADDLING_LINES = 3

/** Whether a verdict is inconclusive only because its interval crosses a tolerance line (no other doubt). */
function straddlesTolerance(v: CaseVerdict): boolean {
  const { interval, tolerance } = v
  if (v.kind !== 'inconclusive' || !interval || tolerance === undefined) return false
  return [-tolerance, tolerance].some((line) => interval.low < line && interval.high > line)
}

/**
 * The lines under the table for the cases the guard could not judge, each with why; cases whose interval merely
 * straddles the tolerance share one line when there are many (at a 1% tolerance most steady cases of a stored
 * baseline read so).
 */
export function inconclusiveNotes(result: KernelBenchResult): string[] {
  const inconclusive = result.cases.filter((c) => c.verdict?.kind === 'inconclusive')
  const straddling = inconclusive.filter((c) => straddlesTolerance(c.verdict!))
  const grouped = straddling.length > STRADDLING_LINES
  const lines = (grouped ? inconclusive.filter((c) => !straddling.includes(c)) : inconclusive).map(
    (c) => `inconclusive ${c.name}: ${c.verdict!.reason ?? c.verdict!.message}`,
  )
  if (grouped) {
    const reach = intervalReach(straddling.map(({ verdict }) => ({ ...verdict!.interval!, tolerance: verdict!.tolerance! })))
    const tolerances = [...new Set(straddling.map(({ verdict }) => formatFraction(verdict!.tolerance!)))].join(', ')
    // Against a stored baseline, where a run's interval is about as wide whatever the change, that is the smallest
    // slowdown these cases can fail on.
    const smallestFailing = straddling.every(({ verdict }) => verdict!.against === undefined)
      ? `; against the stored baseline they fail on slowdowns beyond about ${reach.failingFrom} (a paired A/B run judges smaller ones)`
      : ''
    lines.push(
      `inconclusive ${straddling.length} cases whose interval (half-width ${reach.halfWidths}) straddles the tolerance ` +
        `${tolerances}: the change may or may not exceed it${smallestFailing}`,
    )
  }
  return lines
}

export interface GeometricMeans {
  cases: number
  runtimeMs: number
  flopsPerSecond: number
}

/**
 * Why a bench with several cases gets no geometric mean: some of its cases failed (wrong answer, error, the CI
 * guard), and a mean over the others would make it look better than it is. Undefined when none failed.
 */
export function geometricMeanOmitted(result: KernelBenchResult): string | undefined {
  const failed = result.cases.filter((c) => caseFailures(c).length > 0).length
  if (failed === 0 || result.cases.length < 2) return undefined
  return `no geometric mean: ${failed} case${failed === 1 ? '' : 's'} failed`
}

/**
 * Geometric means of runtime and throughput over the timed cases (docs/architecture.md, "Figures"); undefined
 * when none was timed or geometricMeanOmitted says why not.
 */
export function geometricMeans(result: KernelBenchResult): GeometricMeans | undefined {
  const figures = result.cases.flatMap((c) => caseFigures(result, c) ?? [])
  if (figures.length === 0 || geometricMeanOmitted(result)) return undefined
  return {
    cases: figures.length,
    runtimeMs: geometricMean(figures.map((f) => f.medianMs)),
    flopsPerSecond: geometricMean(figures.map((f) => f.flopsPerSecond)),
  }
}

/**
 * The geometric-mean line under a table: only when more than one case was timed (one would repeat its row), or
 * why there is none when a case failed.
 */
export function geometricMeanLine(result: KernelBenchResult): string | undefined {
  const omitted = geometricMeanOmitted(result)
  if (omitted) return omitted
  const means = geometricMeans(result)
  if (!means || means.cases < 2) return undefined
  return `geometric mean over ${means.cases} cases: ${formatTime(means.runtimeMs)}, ${formatFlops(means.flopsPerSecond)}`
}

const PAINT: Record<Tone, (text: string) => string> = {
  plain: (text) => text,
  dim: pc.dim,
  good: pc.green,
  warn: pc.yellow,
  bad: pc.red,
  alarm: (text) => pc.red(pc.bold(text)),
}

const paint = (c: Cell) => PAINT[c.tone](c.text)

function caseRow(result: KernelBenchResult, c: CaseResult, columns: readonly FigureColumn[]): string[] {
  const cells = caseCells(result, c)
  return 'status' in cells ? [c.name, paint(cells.status)] : [c.name, ...columns.map((k) => paint(cells.figures[k]))]
}

/** The 'vs baseline' cell: the TFLOPS change with its interval and the verdict (red slower, green faster, yellow inconclusive, dim unchanged), flagged on a floor. */
function verdictCell(v: CaseVerdict): string {
  const text = baselineCell(v, baselineChange(v))
  return v.floors.length > 0 ? `${text} ${pc.red('✗ floor')}` : text
}

function baselineCell(v: CaseVerdict, change: string | undefined): string {
  switch (v.kind) {
    case 'regression':
      return pc.red(`${change} regression`)
    case 'improvement':
      return pc.green(`${change} improvement`)
    case 'unchanged':
      return pc.dim(`${change} unchanged`)
    case 'inconclusive':
      return pc.yellow(`${change} inconclusive`)
    case 'no-baseline':
      return pc.dim('new')
    case 'other-gpu':
      return pc.yellow('other GPU')
    case 'updated':
      return pc.dim(change === undefined ? 'recorded' : `recorded (${change})`)
    case 'untracked':
      return '—'
    case 'above-roofline':
      return pc.red('✗ SOL > 100%')
  }
}

const TITLE: Record<FigureColumn, string> = {
  median: 'median',
  cv: 'cv',
  throughput: 'throughput',
  bandwidth: 'bandwidth',
  peak: '% peak',
  bw: '% bw',
  sol: 'SOL',
  practical: 'practical',
  bound: 'bound',
  clock: 'SM MHz',
  gpu: 'GPU',
  n: 'n',
  stop: 'stop',
}

/** The case rows, with a 'vs baseline' column when the CI guard judged any case. */
function caseTable(result: KernelBenchResult): string[] {
  const columns = figureColumns(result)
  const rows = result.cases.map((c) => caseRow(result, c, columns))
  const header = ['case', ...columns.map((k) => TITLE[k])]
  const align: Align[] = ['left', ...columns.map((k): Align => (k === 'stop' ? 'left' : 'right'))]
  if (!result.cases.some((c) => c.verdict)) return renderTable(header, rows, align)
  // Only timed rows (full width) carry a verdict, so the extra cell always lands in the last column.
  const judged = rows.map((row, i) => {
    const v = result.cases[i]!.verdict
    return v ? [...row, verdictCell(v)] : row
  })
  return renderTable([...header, result.compare && !result.compare.missing ? 'vs base' : 'vs baseline'], judged, [...align, 'left'])
}

/**
 * The line that says what a bench's cases were compared with in paired A/B runs (docs/ci-gate.md, "Paired A/B"), or
 * why it has no base; undefined when it was not compared.
 */
export function compareNote(result: Pick<KernelBenchResult, 'compare'>): string | undefined {
  const compare = result.compare
  if (!compare) return undefined
  if (compare.missing) return `no base to compare with at ${compare.base}: ${compare.missing}; judged against its baseline instead`
  return `paired A/B against ${compare.base}, timed with 'cupti': change of speed with its ${formatLevel(compare.confidence)} interval, tolerance ${formatFraction(compare.tolerance)}`
}

/**
 * What a bench's title adds to its name: the problem, the dtype and the solution; not the problem where the name
 * already starts with it ('sum-dim', 'sum-dim: sum.cu' as `init` names a bench), nor the dtype where the name has it
 * as a word ('relu float16', as the example benches are named), so that neither is said twice.
 */
export function benchDetails(result: Pick<KernelBenchResult, 'bench' | 'problem' | 'dtype' | 'solution'>): string[] {
  const { bench, problem, dtype, solution } = result
  const named = bench.startsWith(problem) && !/^[\p{L}\p{N}]/u.test(bench.slice(problem.length))
  const typed = bench.split(/[^\p{L}\p{N}]+/u).includes(dtype)
  return [...(named ? [] : [problem]), ...(typed ? [] : [dtype]), solution]
}

/**
 * Under a table timed in `graph` mode: what its numbers do not rule out, where every other mode's do (docs/defences.md).
 */
export function graphTimingNote(result: Pick<KernelBenchResult, 'options'>): string | undefined {
  if (result.options.timing !== 'graph') return undefined
  return (
    `timing 'graph': the ${result.options.graphBatch} calls of one replay run hot and see the same inputs, so a ` +
    'solution that memoizes within a replay reads faster: a throughput figure for honest kernels, not a defended one'
  )
}

/** The selected cases the bench's `supports` declined, with why: they are in no table. */
export function unsupportedNote(result: Pick<KernelBenchResult, 'unsupported'>): string | undefined {
  if (!result.unsupported?.length) return undefined
  return `not supported by the solution, not run: ${result.unsupported.map((u) => `'${u.name}' (${u.reason})`).join(', ')}`
}

export function renderKernelResult(result: KernelBenchResult): string {
  const title = `${pc.bold(result.bench)} ${pc.dim(benchDetails(result).join(' · '))}`
  if (result.skipped) return `${title}\n  ${pc.yellow(`skipped: ${result.skipped}`)}`
  const lines = [title]
  if (result.options.skipVerification) lines.push(pc.red(pc.bold(`  ${VERIFICATION_SKIPPED_WARNING}`)))
  lines.push(...caseTable(result).map((l) => `  ${l}`))
  const means = geometricMeanLine(result)
  if (means) lines.push(pc.dim(`  ${means}`))
  const unsupported = unsupportedNote(result)
  if (unsupported) lines.push(pc.yellow(`  ${unsupported}`))
  const graph = graphTimingNote(result)
  if (graph) lines.push(pc.yellow(`  ${graph}`))
  lines.push(...paddingFallbackNotes(result).map((note) => pc.yellow(`  ${note}`)))
  lines.push(...unsharedPlacesNotes(result).map((note) => pc.yellow(`  ${note}`)))
  const offset = largeOffsetNote(result)
  if (offset) lines.push(pc.yellow(`  ${offset}`))
  lines.push(...countersNotes(result).map((note) => pc.dim(`  ${note}`)))
  lines.push(...inconclusiveNotes(result).map((note) => pc.yellow(`  ${note}`)))
  const compared = compareNote(result)
  if (compared) lines.push(pc.dim(`  ${compared}`))
  const sol = solNote(result)
  if (sol) lines.push(pc.red(pc.bold(`  ${sol}`)))
  return lines.join('\n')
}
