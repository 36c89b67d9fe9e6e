// The `gate` command: several runs' results files judged together against the stored baselines (docs/ci-gate.md,
// "Several runs judged together"). Prints each case that is not unchanged, with its change, interval and verdict, and
// the counts; appends the same as Markdown to GitHub's job summary where the job has one. Fails (exit 1) on any case
// whose verdict fails.
import fs from 'node:fs'
import path from 'node:path'
import { readBaseline } from '../baseline/store.js'
import { judgeRunsTogether, type CaseJudgedTogether, type LeftOut } from '../baseline/runs-together.js'
import { resolveVerdictOptions, type VerdictOptions } from '../baseline/verdict.js'
import { formatChangeInterval } from '../shared/median-change.js'
import { formatFraction, intervalReach } from '../report/format.js'
import { readResultsFiles } from '../report/read-results.js'

/** The order the verdicts are listed and counted in. */
const KINDS = ['regression', 'improvement', 'inconclusive', 'unchanged', 'no-baseline', 'other-gpu'] as const
const COUNTED: Record<(typeof KINDS)[number], [string, string]> = {
  regression: ['regression', 'regressions'],
  improvement: ['improvement', 'improvements'],
  inconclusive: ['inconclusive', 'inconclusive'],
  unchanged: ['unchanged', 'unchanged'],
  'no-baseline': ['without a baseline', 'without a baseline'],
  'other-gpu': ['with a baseline of another GPU model only', 'with a baseline of another GPU model only'],
}

const caseLabel = (c: CaseJudgedTogether) => `${c.bench} · ${c.caseName}`
const runsLabel = (c: CaseJudgedTogether) => `${c.runs} run${c.runs === 1 ? '' : 's'}`

/** The line of a judged case: its change and interval where it was compared, else its message. */
function caseLine(c: CaseJudgedTogether): string {
  const v = c.verdict
  const why = v.kind === 'inconclusive' && 'reason' in v ? ` (${v.reason})` : ''
  return 'interval' in v ? `${v.kind} ${caseLabel(c)}: ${formatChangeInterval(v.interval)} over ${runsLabel(c)}${why}` : `${v.kind} ${caseLabel(c)}: ${v.message}`
}

/** More inconclusive cases than this share one line in the terminal (at a 1% tolerance most steady cases read so). */
const INCONCLUSIVE_LINES = 5

/** The terminal's lines for the cases that are neither unchanged nor failing: listed, or the inconclusive ones grouped. */
function listedLines(judged: readonly CaseJudgedTogether[], tolerance: number): string[] {
  const shown = judged.filter((c) => c.verdict.kind !== 'unchanged' && !c.verdict.fails)
  const inconclusive = shown.flatMap((c) => (c.verdict.kind === 'inconclusive' && 'interval' in c.verdict ? [{ ...c.verdict.interval, tolerance }] : []))
  if (inconclusive.length <= INCONCLUSIVE_LINES) return shown.map(caseLine)
  // The interval is about as wide whatever the change, so the slowdowns beyond each half-width plus the tolerance fail.
  const reach = intervalReach(inconclusive)
  return [
    ...shown.filter((c) => c.verdict.kind !== 'inconclusive').map(caseLine),
    `inconclusive ${inconclusive.length} cases whose interval (half-width ${reach.halfWidths}) is too wide to say whether the change ` +
      `exceeds the tolerance: they fail on slowdowns beyond about ${reach.failingFrom} (more runs, or a paired A/B run, judge smaller ones)`,
  ]
}

function counts(judged: readonly CaseJudgedTogether[]): string {
  return KINDS.map((kind) => [kind, judged.filter((c) => c.verdict.kind === kind).length] as const)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${COUNTED[kind][n === 1 ? 0 : 1]}`)
    .join(', ')
}

function markdown(judged: readonly CaseJudgedTogether[], notJudged: readonly LeftOut[], files: readonly string[]): string {
  const listed = judged.filter((c) => c.verdict.kind !== 'unchanged')
  const rows = listed.map((c) => {
    const v = c.verdict
    const change = 'interval' in v ? formatChangeInterval(v.interval) : ''
    const reason = 'reason' in v ? v.reason : v.message
    return `| ${c.verdict.kind === 'regression' ? '❌ ' : ''}${caseLabel(c).replaceAll('|', '\\|')} | ${change} | ${v.kind} | ${c.runs} | ${reason.replaceAll('|', '\\|')} |`
  })
  return [
    `### Kernel gate: ${files.length} runs judged together`,
    '',
    `${judged.length} cases: ${counts(judged)}.`,
    '',
    ...notJudged.map(({ bench, reason }) => `Not judged: ${bench.replaceAll('|', '\\|')}: ${reason}`),
    ...(notJudged.length > 0 ? [''] : []),
    ...(rows.length > 0
      ? ['<details><summary>cases not unchanged</summary>', '', '| case | change [interval] | verdict | runs | why |', '| --- | --- | --- | --- | --- |', ...rows, '', '</details>', '']
      : []),
  ].join('\n')
}

/**
 * Judges the results files (paths relative to the working directory) together against the baseline files they name,
 * relative to `root` (the Vitest root); returns whether any case fails. `options` override what each case's own runs
 * were judged with.
 */
export function gate(files: readonly string[], root: string, options: Partial<VerdictOptions>, out: (text: string) => void = (t) => process.stdout.write(t)): boolean {
  const sources = readResultsFiles(files.map((file) => path.resolve(file)))
  const verdictOptions = resolveVerdictOptions({ ...judgedWith(sources.flatMap((s) => s.file.benches)), ...options })
  const baselines = new Map<string, ReturnType<typeof readBaseline>>()
  const readBaselineFile = (file: string) => {
    if (!baselines.has(file)) baselines.set(file, readBaseline(path.resolve(root, file)))
    return baselines.get(file)
  }
  const { judged, notJudged } = judgeRunsTogether(
    sources.map((s) => s.file.benches),
    readBaselineFile,
    verdictOptions,
  )
  if (judged.length === 0) {
    const why = notJudged.length > 0 ? leftOutSummary(notJudged) : 'were the benches skipped, without a GPU?'
    throw new Error(`no case to judge: the files hold no case timed by \`vitest bench\` and judged against a baseline file (${why})`)
  }
  const ordered = [...judged].sort((a, b) => KINDS.indexOf(a.verdict.kind) - KINDS.indexOf(b.verdict.kind))
  const failing = ordered.filter((c) => c.verdict.fails)
  out(
    [
      `judged ${judged.length} cases over ${files.length} runs (${files.join(', ')}), tolerance ${formatFraction(verdictOptions.tolerance)}`,
      ...listedLines(ordered, verdictOptions.tolerance).map((line) => `  ${line}`),
      ...notJudged.map(({ bench, reason }) => `  not judged: ${bench}: ${reason}`),
      ...failing.map((c) => `FAIL ${caseLabel(c)} (${c.benchFile}, board ${c.board ?? 'unknown'}): ${c.verdict.message}`),
      counts(judged),
      '',
    ].join('\n'),
  )
  const summary = process.env.GITHUB_STEP_SUMMARY
  if (summary) fs.appendFileSync(summary, markdown(judged, notJudged, files))
  return failing.length > 0
}

/** What was left out, a line per reason: how many benches, and the first of them. */
function leftOutSummary(notJudged: readonly LeftOut[]): string {
  const byReason = new Map<string, string[]>()
  for (const { bench, reason } of notJudged) byReason.set(reason, [...(byReason.get(reason) ?? []), bench])
  return [...byReason]
    .map(([reason, benches]) => `${benches.length === 1 ? benches[0] : `${benches.length} benches (${benches[0]}, …)`}: ${reason}`)
    .join('; ')
}

/**
 * The tolerance and confidence the runs' own verdicts were judged with (the plugin's baseline options), so that the
 * gate judges as the runs did unless told otherwise; the defaults where no case says.
 */
function judgedWith(benches: ReturnType<typeof readResultsFiles>[number]['file']['benches']): Partial<VerdictOptions> {
  for (const bench of benches) {
    for (const c of bench.result?.cases ?? []) {
      const v = c.verdict
      if (v?.tolerance !== undefined && v.interval && !c.paired) return { tolerance: v.tolerance, confidence: v.interval.confidence }
    }
  }
  return {}
}
