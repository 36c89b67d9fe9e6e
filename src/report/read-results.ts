// Saved results files (docs/result-schema.md) read back for the `report` command, each checked to be one this
// version of the package can draw.
import fs from 'node:fs'
import path from 'node:path'
import type { ReportSource } from './charts/cases.js'
import { RESULTS_FILE_SCHEMA, RESULTS_FILE_VERSION, type ResultsFile } from './json.js'

function readResultsFile(file: string): ResultsFile {
  let parsed: Partial<ResultsFile>
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<ResultsFile>
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as Error).message}`)
  }
  if (parsed.schema !== RESULTS_FILE_SCHEMA || !Array.isArray(parsed.benches)) {
    throw new Error(`${file} is not a vitest-kernel-bench results file (no "schema": "${RESULTS_FILE_SCHEMA}")`)
  }
  if (parsed.version !== RESULTS_FILE_VERSION) {
    throw new Error(`${file} has results schema version ${parsed.version}; this version of vitest-kernel-bench reads ${RESULTS_FILE_VERSION}`)
  }
  return parsed as ResultsFile
}

/** The files as report sources, each named by its file name (or its path, where two share a name). */
export function readResultsFiles(files: readonly string[]): ReportSource[] {
  const names = files.map((file) => path.basename(file))
  return files.map((file, i) => ({ name: names.indexOf(names[i]!) === names.lastIndexOf(names[i]!) ? names[i]! : file, file: readResultsFile(file) }))
}
