// Prints, for every timed case in a reference results file, its median there and in another run's file, with
// the difference and the reference's CV (is the difference within the noise?), then a summary: how many medians
// moved by more than max(2%, 3 CV), the median ratio, the cases not timed in the other run, the cases with more
// than 1% of their samples above twice their median, and the median timing wall per case. Used by
// scripts/faults-demo.sh and to compare a run on several GPUs with a run on one.
//   tsx scripts/compare-medians.ts <reference.json> <other.json>
import { summarize } from '../src/shared/stats.js'
import { formatTime, renderTable } from '../src/report/format.js'
import { casesByName } from './results-file.js'

interface TimedCase {
  name: string
  summary?: { median: number; cv: number }
  outcome: { status: string; timing?: { samplesMs: number[]; wallMs: number } }
}

const median = (values: number[]) => (values.length > 0 ? summarize(values).median : NaN)

/** More than 1% of the samples above twice the median: a bimodal case. */
function bimodal(c: TimedCase): boolean {
  const samples = c.outcome.timing?.samplesMs ?? []
  return c.summary !== undefined && samples.filter((s) => s > 2 * c.summary!.median).length > samples.length / 100
}

const [referenceFile, otherFile] = process.argv.slice(2)
if (!referenceFile || !otherFile) throw new Error('usage: compare-medians.ts <reference.json> <other.json>')
const reference = casesByName<TimedCase>(referenceFile)
const other = casesByName<TimedCase>(otherFile)
const ratios: number[] = []
const moved: string[] = []
const notTimed: string[] = []
const rows = [...reference].flatMap(([key, ref]) => {
  if (!ref.summary) return []
  const got = other.get(key)
  if (!got?.summary) {
    notTimed.push(`${key}: ${got ? got.outcome.status : 'not run'}`)
    return [[key, formatTime(ref.summary.median), got ? got.outcome.status : 'not run', '', `${(ref.summary.cv * 100).toFixed(2)}%`]]
  }
  const ratio = got.summary.median / ref.summary.median
  ratios.push(ratio)
  if (Math.abs(ratio - 1) > Math.max(0.02, 3 * Math.max(ref.summary.cv, got.summary.cv))) moved.push(key)
  const change = (ratio - 1) * 100
  return [[key, formatTime(ref.summary.median), formatTime(got.summary.median), `${change >= 0 ? '+' : ''}${change.toFixed(2)}%`, `${(ref.summary.cv * 100).toFixed(2)}%`]]
})
const header = ['case', 'reference', 'this run', 'change', 'reference CV']
console.log(renderTable(header, rows, header.map((_, i) => (i === 0 ? 'left' : 'right'))).join('\n'))
const wall = (cases: Map<string, TimedCase>) => median([...cases.values()].flatMap((c) => c.outcome.timing?.wallMs ?? []))
const bimodalCount = (cases: Map<string, TimedCase>) => [...cases.values()].filter(bimodal).length
console.log(`\n${ratios.length} cases timed in both; median ratio ${median(ratios).toFixed(4)}; moved beyond max(2%, 3 CV): ${moved.length}`)
for (const key of moved) console.log(`  moved: ${key}`)
console.log(`not timed in the other run: ${notTimed.length}`)
for (const line of notTimed) console.log(`  ${line}`)
console.log(`cases with > 1% of samples above 2× their median: reference ${bimodalCount(reference)}, other ${bimodalCount(other)}`)
console.log(`median timing wall per case: reference ${wall(reference).toFixed(0)} ms, other ${wall(other).toFixed(0)} ms`)
