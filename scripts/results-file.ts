// Reads a results file (the JSON report of KERNELBENCH_JSON, docs/result-schema.md) for the scripts that compare runs:
// every case of every bench, keyed '<bench> · <case>'.
import fs from 'node:fs'

export function casesByName<Case extends { name: string }>(file: string): Map<string, Case> {
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { benches: Array<{ name: string; result?: { cases: Case[] } }> }
  const found = new Map<string, Case>()
  for (const bench of data.benches) for (const c of bench.result?.cases ?? []) found.set(`${bench.name} · ${c.name}`, c)
  return found
}
