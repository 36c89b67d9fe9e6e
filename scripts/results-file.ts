// Reads a results file (the JSON report of KERNELBENCH_JSON, docs/result-schema.md) for the scripts that compare runs:
// every case of every bench, keyed '<bench> · <case>', or each row keyed with its bench file too.
import fs from 'node:fs'

interface ResultsFile<Case> {
  benches: Array<{ file: string; name: string; result?: { cases: Case[]; device?: { uuid?: string } } }>
}

/** A case as far as its board goes: the GPU that ran it. */
interface CaseOnGpu {
  name: string
  gpu?: { uuid?: string }
}

function readResults<Case>(file: string): ResultsFile<Case> {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as ResultsFile<Case>
}

export function casesByName<Case extends { name: string }>(file: string): Map<string, Case> {
  const found = new Map<string, Case>()
  for (const bench of readResults<Case>(file).benches) for (const c of bench.result?.cases ?? []) found.set(`${bench.name} · ${c.name}`, c)
  return found
}

/**
 * Every case, keyed as casesByName keys them, with the board that ran it: its GPU's UUID, else its bench's device's
 * (absent in files from before results named boards).
 */
export function casesWithBoards<Case extends CaseOnGpu>(file: string): Map<string, { case: Case; board?: string }> {
  const found = new Map<string, { case: Case; board?: string }>()
  for (const bench of readResults<Case>(file).benches) {
    for (const c of bench.result?.cases ?? []) found.set(`${bench.name} · ${c.name}`, { case: c, board: c.gpu?.uuid ?? bench.result?.device?.uuid })
  }
  return found
}

/** Every row as '<bench file> · <bench> · <case>': two benches of one name in two files stay two rows. */
export function rowKeys(file: string): Set<string> {
  const rows = new Set<string>()
  for (const bench of readResults<{ name: string }>(file).benches) {
    for (const c of bench.result?.cases ?? []) rows.add(`${bench.file} · ${bench.name} · ${c.name}`)
  }
  return rows
}
