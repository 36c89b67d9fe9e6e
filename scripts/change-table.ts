// The change each paired run read per case, one column per results file, for the bias stage of
// scripts/paired-check.sh: whether a difference between two processes keeps its sign from run to run.
//   tsx scripts/change-table.ts <run-1.json> [<run-2.json> …]   (a file that is missing counts as a run with no rows)
import fs from 'node:fs'
import { casesByName } from './results-file.js'

const files = process.argv.slice(2)
if (files.length === 0) throw new Error('usage: change-table.ts <run-1.json> [<run-2.json> …]')
const table = new Map<string, string[]>()
for (const file of files) {
  if (!fs.existsSync(file)) continue
  for (const [row, c] of casesByName<{ name: string; verdict?: { change?: number } }>(file)) {
    const change = c.verdict?.change
    table.set(row, [...(table.get(row) ?? []), change === undefined ? '—' : `${(change * 100).toFixed(2)}%`])
  }
}
for (const [row, changes] of table) console.log(`${row}: ${changes.join('  ')}`)
