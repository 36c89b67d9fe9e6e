// The run as GitHub-flavoured Markdown, for GITHUB_STEP_SUMMARY or a file: the device, then per bench the kernel
// table (the terminal's figures and marks, from kernel-table.ts) with the CI guard's verdict per case. Pure.
import type { CaseResult, CaseVerdict, KernelBenchResult } from '../shared/results.js'
import { formatFraction } from './format.js'
import type { ReportedBench } from './json.js'
import {
  DROPPED_SHARE,
  LIMIT_CV_FACTOR,
  VERIFICATION_SKIPPED_WARNING,
  benchDetails,
  caseCells,
  caseFigures,
  deviceLine,
  deviceNotes,
  deviceRecordLines,
  figureColumns,
  flagged,
  geometricMeanLine,
  largeOffsetNote,
  graphTimingNote,
  paddingFallbackNotes,
  unsharedPlacesNotes,
  unsupportedNote,
  countersNotes,
  baselineChange,
  compareNote,
  inconclusiveNotes,
  solNote,
  type Cell,
  type FigureColumn,
} from './kernel-table.js'

type OtherColumn = Exclude<FigureColumn, 'median' | 'cv'>
/** The figure columns after 'median ± CV' (Markdown joins the CV to the median). */
function otherColumns(result: KernelBenchResult): OtherColumn[] {
  return figureColumns(result).filter((k): k is OtherColumn => k !== 'median' && k !== 'cv')
}
const COLUMN_TITLE: Record<OtherColumn, string> = {
  throughput: 'throughput',
  bandwidth: 'bandwidth',
  peak: '% peak compute',
  bw: '% peak bandwidth',
  sol: 'SOL',
  practical: '% of practical peak',
  bound: 'bound (ncu SOL)',
  clock: 'SM MHz',
  gpu: 'GPU',
  n: 'samples',
  stop: 'stop rule',
}

const VERDICT_WORDS: Record<CaseVerdict['kind'], string> = {
  regression: 'regression',
  improvement: 'improvement',
  unchanged: 'unchanged',
  inconclusive: '⚠ inconclusive',
  'no-baseline': 'no baseline',
  'other-gpu': 'other GPU',
  updated: 'baseline recorded',
  untracked: 'untracked (no FLOP count)',
  'above-roofline': 'SOL above 100%',
}

const STATE_MARK: Record<ReportedBench['state'], string> = { passed: '✓', failed: '✗', skipped: '↷', pending: '…' }

/** Backslash-escapes the characters that would start Markdown syntax or end a table cell. */
function escape(text: string): string {
  return text.replace(/[\\`*_[\]<>|#~]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ')
}

/** 'bad' and 'alarm' cells are bold; 'warn' italic (the notes under the table say why); the rest plain. */
function emphasise(cell: Cell): string {
  const text = escape(cell.text)
  if (cell.tone === 'bad' || cell.tone === 'alarm') return `**${text}**`
  return cell.tone === 'warn' ? `_${text}_` : text
}

/** A fenced block that its content cannot close. */
function fenced(text: string): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length))
  const fence = '`'.repeat(Math.max(3, longestRun + 1))
  return `${fence}text\n${text}\n${fence}`
}

function verdictCell(v: CaseVerdict | undefined): string {
  if (!v) return '—'
  const shown = baselineChange(v)
  const change = shown === undefined ? '' : ` ${escape(shown)}`
  const text = `${v.fails ? '✗ ' : ''}${VERDICT_WORDS[v.kind]}${change}${v.floors.length > 0 ? ' · ✗ floor violated' : ''}`
  return v.fails || v.floors.length > 0 ? `**${text}**` : text
}

function tableRow(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`
}

function caseRow(result: KernelBenchResult, c: CaseResult): string {
  const cells = caseCells(result, c)
  if ('status' in cells) return tableRow([escape(c.name), emphasise(cells.status)])
  const f = cells.figures
  const median = `${emphasise(f.median)} ${emphasise(f.cv)}`
  return tableRow([escape(c.name), median, ...otherColumns(result).map((k) => emphasise(f[k])), verdictCell(c.verdict)])
}

function caseTable(result: KernelBenchResult): string[] {
  const header = ['case', 'median ± CV', ...otherColumns(result).map((k) => COLUMN_TITLE[k]), 'verdict']
  const align = header.map((_, i) => (i === 0 || i >= header.length - 2 ? ':--' : '--:'))
  return [tableRow(header), tableRow(align), ...result.cases.map((c) => caseRow(result, c))]
}

/** The lines under a table that explain its marks, each only when a case needs it. */
function notes(result: KernelBenchResult): string[] {
  const figures = result.cases.flatMap((c) => caseFigures(result, c) ?? [])
  const lines: string[] = []
  const sol = solNote(result)
  if (sol) lines.push(`**${escape(sol)}**`)
  const graph = graphTimingNote(result)
  if (graph) lines.push(escape(graph))
  lines.push(...paddingFallbackNotes(result).map(escape))
  lines.push(...unsharedPlacesNotes(result).map(escape))
  const offset = largeOffsetNote(result)
  if (offset) lines.push(escape(offset))
  lines.push(...countersNotes(result).map(escape))
  lines.push(...inconclusiveNotes(result).map((note) => `_${escape(note)}_`))
  const compared = compareNote(result)
  if (compared) lines.push(escape(compared))
  const throttled = figures.some((f) => f.droppedThrottled > 0)
  const interfered = figures.some((f) => f.droppedInterference > 0)
  if (throttled || interfered) {
    const fraction = Math.round(result.options.throttleFraction * 100)
    const why = [
      ...(throttled ? [`taken below ${fraction}% of the maximum SM clock (throttled)`] : []),
      ...(interfered ? ['with foreign GPU work or a host stall inside their timed window'] : []),
    ]
    const share = figures.some((f) => flagged(f, 'dropped')) ? `; _in italics_ where that is over ${formatFraction(DROPPED_SHARE)} of the samples taken` : ''
    lines.push(`samples n (-k): k more were dropped, ${why.join(' or ')}${share}`)
  }
  if (figures.some((f) => flagged(f, 'noise'))) {
    lines.push(`_CV in italics_: timing stopped at its time or iteration limit with the CV over ${LIMIT_CV_FACTOR}× the target ${formatFraction(result.options.targetCv)}`)
  }
  return lines
}

function benchSection(bench: ReportedBench): string[] {
  const lines = [`### ${STATE_MARK[bench.state]} ${escape(bench.name)}`, '']
  const r = bench.result
  const caption = r ? [bench.file, ...benchDetails(r), ...(r.device ? [r.device.name] : [])] : [bench.file]
  lines.push(escape(caption.join(' · ')), '')
  if (r?.skipped) lines.push(`_skipped: ${escape(r.skipped)}_`, '')
  else if (r) {
    if (r.options.skipVerification) lines.push(`> **⚠ ${escape(VERIFICATION_SKIPPED_WARNING)}**`, '')
    lines.push(...caseTable(r), '')
    const means = geometricMeanLine(r)
    if (means) lines.push(`_${escape(means)}_`, '')
    const unsupported = unsupportedNote(r)
    if (unsupported) lines.push(`_${escape(unsupported)}_`, '')
    const marks = notes(r)
    // One quote paragraph per note: consecutive quote lines would run together into one.
    if (marks.length > 0) lines.push(marks.map((m) => `> ${m}`).join('\n>\n'), '')
  }
  if (bench.state === 'failed' && bench.errors.length > 0) lines.push(fenced(bench.errors.join('\n\n')), '')
  return lines
}

/** Each distinct device in the run, in the order benches first used it, with its ceilings, calibration and notes if any. */
function deviceLines(benches: readonly ReportedBench[]): string[] {
  const seen = new Set<string>()
  const lines: string[] = []
  for (const { result } of benches) {
    if (!result?.device || !result.arch) continue
    const block = [`**${escape(deviceLine(result.device, result.arch, result.devices))}**`, '']
    for (const line of deviceRecordLines(result)) block.push(escape(line), '')
    const notes = deviceNotes(result.device, result.ceilings)
    // One quote paragraph per note: consecutive quote lines would run together into one.
    if (notes.length > 0) block.push(notes.map((note) => `> ${escape(note)}`).join('\n>\n'), '')
    const text = block.join('\n')
    if (seen.has(text)) continue
    seen.add(text)
    lines.push(...block)
  }
  return lines
}

function countLine(benches: readonly ReportedBench[]): string {
  if (benches.length === 0) return 'no kernel benchmarks ran'
  const counts = (['passed', 'failed', 'skipped', 'pending'] as const)
    .map((state) => [state, benches.filter((b) => b.state === state).length] as const)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state}`)
  return `${benches.length} bench${benches.length === 1 ? '' : 'es'}: ${counts.join(', ')}`
}

export function renderMarkdown(benches: readonly ReportedBench[]): string {
  const lines = ['## Kernel benchmarks', '', countLine(benches), '', ...deviceLines(benches), ...benches.flatMap(benchSection)]
  return `${lines.join('\n').trimEnd()}\n`
}
