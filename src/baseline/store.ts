/**
 * Baseline files (docs/architecture.md, "The CI guard"): one JSON file per bench file, entries keyed by bench name, case name, dtype and
 * GPU model (never by position), written atomically.
 */
import * as fs from 'node:fs'
import * as path from 'node:path'
import type { BaselineEntry, BaselineRun } from './verdict.js'
import { writeFileAtomic } from '../cache/atomic-write.js'

export interface BaselineKey {
  bench: string
  caseName: string
  dtype: string
  gpu: string
}

export const BASELINE_SCHEMA_VERSION = 1

export interface BaselineFile {
  version: 1
  /** Keyed by keyString(key). */
  entries: Record<string, BaselineEntry>
}

export const BASELINE_DIR = '__kernelbench__'

/** A baseline file that exists but cannot be used. `path` is the file, `problem` what is wrong with it. */
export class BaselineFileError extends Error {
  readonly path: string
  readonly problem: string
  constructor(file: string, problem: string) {
    super(`malformed baseline file ${file}: ${problem}`)
    this.name = 'BaselineFileError'
    this.path = file
    this.problem = problem
  }
}

const SEP = ' › '

/** `\` → `\\`, `›` → `\›`, so a component can never contain an unescaped separator. */
function escapePart(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/›/g, '\\›')
}

/**
 * Stable, human-readable key: `bench › case › dtype › gpu`, e.g.
 * `tiled sgemm › 4096x4096x4096 › float32 › NVIDIA H100 80GB HBM3`. Depends only on the names, never on the
 * order in which benches or cases run. A `\` or `›` inside a name is escaped with `\` so keys stay unambiguous.
 */
export function keyString(k: BaselineKey): string {
  return [k.bench, k.caseName, k.dtype, k.gpu].map(escapePart).join(SEP)
}

/** Inverse of keyString; undefined when `s` is not a well-formed key. */
export function parseKeyString(s: string): BaselineKey | undefined {
  const parts: string[] = []
  let cur = ''
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!
    if (c === '\\') {
      const next = s[i + 1]
      if (next !== '\\' && next !== '›') return undefined
      cur += next
      i++
    } else if (c === '›') {
      if (!cur.endsWith(' ') || s[i + 1] !== ' ') return undefined
      parts.push(cur.slice(0, -1))
      cur = ''
      i++
    } else {
      cur += c
    }
  }
  parts.push(cur)
  if (parts.length !== 4) return undefined
  const [bench, caseName, dtype, gpu] = parts as [string, string, string, string]
  return { bench, caseName, dtype, gpu }
}

/**
 * `<root>/__kernelbench__/<bench file relative to root, separators replaced by __>.json`, e.g. bench file
 * `bench/gemm/sgemm.bench.ts` → `<root>/__kernelbench__/bench__gemm__sgemm.bench.ts.json`. `benchFile` may be
 * absolute or relative to `root`; it must lie inside `root`. `dir` (relative to `root`, or absolute) replaces
 * `__kernelbench__`.
 */
export function baselinePath(root: string, benchFile: string, dir: string = BASELINE_DIR): string {
  const absRoot = path.resolve(root)
  const rel = path.relative(absRoot, path.resolve(absRoot, benchFile))
  if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) {
    throw new Error(`bench file ${benchFile} is not inside the root ${absRoot}`)
  }
  const flat = rel.split(/[\\/]+/).join('__')
  return path.join(path.resolve(absRoot, dir), `${flat}.json`)
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function isDate(v: unknown): v is string {
  return typeof v === 'string' && !Number.isNaN(Date.parse(v))
}

function validateRun(raw: unknown): string | undefined {
  if (!isRecord(raw)) return 'is not an object'
  if (!(typeof raw.runtimeMs === 'number' && Number.isFinite(raw.runtimeMs) && raw.runtimeMs > 0)) return `has "runtimeMs" = ${JSON.stringify(raw.runtimeMs)}, expected a finite number > 0`
  if (!(typeof raw.medianSe === 'number' && Number.isFinite(raw.medianSe) && raw.medianSe >= 0)) return `has "medianSe" = ${JSON.stringify(raw.medianSe)}, expected a finite number >= 0`
  if (!(Number.isInteger(raw.n) && (raw.n as number) >= 1)) return `has "n" = ${JSON.stringify(raw.n)}, expected an integer >= 1`
  if (!isDate(raw.measuredAt)) return `has "measuredAt" = ${JSON.stringify(raw.measuredAt)}, not a date`
  if (raw.board !== undefined && !(typeof raw.board === 'string' && raw.board !== '')) return `has "board" = ${JSON.stringify(raw.board)}, expected a non-empty string`
  const share = raw.hostShare
  if (share !== undefined && !(typeof share === 'number' && share >= 0 && share <= 1)) return `has "hostShare" = ${JSON.stringify(share)}, expected a number from 0 to 1`
  const probe = raw.boardProbeMs
  if (probe !== undefined && !(typeof probe === 'number' && Number.isFinite(probe) && probe > 0)) return `has "boardProbeMs" = ${JSON.stringify(probe)}, expected a finite number > 0`
  return undefined
}

function validateEntry(file: string, key: string, raw: unknown): BaselineEntry {
  const bad = (what: string): never => {
    throw new BaselineFileError(file, `entry "${key}" ${what}`)
  }
  if (!isRecord(raw)) return bad('is not an object')
  const num = (name: 'tflops' | 'runtimeMs' | 'cv', positive: boolean): number => {
    const v = raw[name]
    if (v === undefined) return bad(`is missing "${name}"`)
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (positive && v === 0)) {
      return bad(`has "${name}" = ${JSON.stringify(v)}, expected a finite number ${positive ? '> 0' : '>= 0'}`)
    }
    return v
  }
  const str = (name: 'gpu' | 'measuredAt'): string => {
    const v = raw[name]
    if (v === undefined) return bad(`is missing "${name}"`)
    if (typeof v !== 'string' || v === '') return bad(`has "${name}" = ${JSON.stringify(v)}, expected a non-empty string`)
    return v
  }
  const entry: BaselineEntry = {
    tflops: num('tflops', true),
    runtimeMs: num('runtimeMs', true),
    cv: num('cv', false),
    gpu: str('gpu'),
    measuredAt: str('measuredAt'),
  }
  if (!isDate(entry.measuredAt)) bad(`has "measuredAt" = ${JSON.stringify(entry.measuredAt)}, not a date`)
  // Entries written before the gate kept runs have none; they are still read and judged (docs/ci-gate.md).
  if (raw.runs !== undefined) {
    if (!Array.isArray(raw.runs) || raw.runs.length === 0) bad('has "runs" that is not a non-empty array')
    const runs = raw.runs as unknown[]
    runs.forEach((run, i) => {
      const problem = validateRun(run)
      if (problem) bad(`run ${i} ${problem}`)
    })
    entry.runs = runs as BaselineRun[]
  }
  const k = parseKeyString(key)
  if (k === undefined) bad('has a key that is not "bench › case › dtype › gpu"')
  else if (k.gpu !== entry.gpu) bad(`is keyed for GPU "${k.gpu}" but records "gpu" = "${entry.gpu}"`)
  return entry
}

/** Validate parsed JSON as a baseline file; throws BaselineFileError naming `file`. */
export function parseBaseline(file: string, data: unknown): BaselineFile {
  if (!isRecord(data)) throw new BaselineFileError(file, 'top level is not a JSON object')
  if (data.version !== BASELINE_SCHEMA_VERSION) {
    throw new BaselineFileError(
      file,
      `unsupported version ${JSON.stringify(data.version)}, expected ${BASELINE_SCHEMA_VERSION}`,
    )
  }
  if (!isRecord(data.entries)) throw new BaselineFileError(file, '"entries" is missing or not an object')
  const entries: Record<string, BaselineEntry> = {}
  for (const [key, raw] of Object.entries(data.entries)) entries[key] = validateEntry(file, key, raw)
  return { version: 1, entries }
}

/** Read and validate a baseline file: undefined when it does not exist, BaselineFileError when malformed. */
export function readBaseline(file: string): BaselineFile | undefined {
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (err) {
    throw new BaselineFileError(file, `not valid JSON (${(err as Error).message})`)
  }
  return parseBaseline(file, data)
}

/**
 * The baseline for `key`: the entry for the same GPU if there is one; otherwise, if the same bench, case and dtype
 * was recorded only on other GPUs, one of those (the first in key order, so deterministic), so that
 * compareToBaseline reports 'other-gpu' rather than 'no-baseline'; otherwise undefined.
 * Callers tell the two apart by `entry.gpu === key.gpu`.
 */
export function lookup(file: BaselineFile | undefined, key: BaselineKey): BaselineEntry | undefined {
  if (file === undefined) return undefined
  const exact = file.entries[keyString(key)]
  if (exact !== undefined) return exact
  for (const k of Object.keys(file.entries).sort()) {
    const p = parseKeyString(k)
    if (p !== undefined && p.bench === key.bench && p.caseName === key.caseName && p.dtype === key.dtype) {
      return file.entries[k]
    }
  }
  return undefined
}

function sortedFile(file: BaselineFile): BaselineFile {
  const entries: Record<string, BaselineEntry> = {}
  for (const k of Object.keys(file.entries).sort()) {
    const e = file.entries[k]!
    const runs = e.runs?.map((r) => ({
      runtimeMs: r.runtimeMs,
      medianSe: r.medianSe,
      n: r.n,
      measuredAt: r.measuredAt,
      ...(r.board !== undefined && { board: r.board }),
      ...(r.hostShare !== undefined && { hostShare: r.hostShare }),
      ...(r.boardProbeMs !== undefined && { boardProbeMs: r.boardProbeMs }),
    }))
    entries[k] = { tflops: e.tflops, runtimeMs: e.runtimeMs, cv: e.cv, gpu: e.gpu, measuredAt: e.measuredAt, ...(runs && { runs }) }
  }
  return { version: 1, entries }
}

/** The exact text writeBaseline writes: keys sorted, 2-space indent, trailing newline. */
export function serializeBaseline(file: BaselineFile): string {
  return `${JSON.stringify(sortedFile(file), null, 2)}\n`
}

/**
 * Write atomically: the whole text goes to `${file}.tmp-<pid>-<random>` in the same directory, is fsynced, and is
 * renamed over `file`, so readers (and a run killed at any point) see either the old file or the new one, never a
 * half-written one. Creates the directory as needed. A killed writer may leave its temp file behind; it is never
 * read.
 */
export function writeBaseline(file: string, data: BaselineFile): void {
  writeFileAtomic(file, serializeBaseline(data))
}

/**
 * `previous` with `updates` applied (a later update for the same key wins). Entries that are not updated (other
 * benches, cases, dtypes, GPUs) are kept. The result's keys are sorted. Throws when an update's entry.gpu differs
 * from its key's gpu.
 */
export function mergeEntries(
  previous: BaselineFile | undefined,
  updates: Array<[BaselineKey, BaselineEntry]>,
): BaselineFile {
  const entries: Record<string, BaselineEntry> = { ...previous?.entries }
  for (const [key, entry] of updates) {
    if (entry.gpu !== key.gpu) {
      throw new Error(`baseline update for "${keyString(key)}" records gpu "${entry.gpu}"`)
    }
    entries[keyString(key)] = { ...entry }
  }
  return sortedFile({ version: 1, entries })
}
