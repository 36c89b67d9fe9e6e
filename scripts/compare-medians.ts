// Prints, for every timed case in a reference results file, its median there and in another run's file, with
// the difference and the reference's CV (is the difference within the noise?). Used by scripts/faults-demo.sh.
//   tsx scripts/compare-medians.ts <reference.json> <other.json>
import fs from 'node:fs'
import { formatTime, renderTable } from '../src/report/format.js'

interface ResultsFile {
  benches: Array<{ name: string; state: string; result?: { cases: Array<{ name: string; summary?: { median: number; cv: number } }> } }>
}

function medians(file: string): Map<string, { median: number; cv: number }> {
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as ResultsFile
  const found = new Map<string, { median: number; cv: number }>()
  for (const bench of data.benches) {
    for (const c of bench.result?.cases ?? []) if (c.summary) found.set(`${bench.name} · ${c.name}`, c.summary)
  }
  return found
}

const [referenceFile, otherFile] = process.argv.slice(2)
if (!referenceFile || !otherFile) throw new Error('usage: compare-medians.ts <reference.json> <other.json>')
const reference = medians(referenceFile)
const other = medians(otherFile)
const rows = [...reference].map(([key, ref]) => {
  const got = other.get(key)
  if (!got) return [key, formatTime(ref.median), 'not run', '', `${(ref.cv * 100).toFixed(2)}%`]
  const change = (got.median / ref.median - 1) * 100
  return [key, formatTime(ref.median), formatTime(got.median), `${change >= 0 ? '+' : ''}${change.toFixed(2)}%`, `${(ref.cv * 100).toFixed(2)}%`]
})
const header = ['case', 'reference', 'this run', 'change', 'reference CV']
console.log(renderTable(header, rows, header.map((_, i) => (i === 0 ? 'left' : 'right'))).join('\n'))
