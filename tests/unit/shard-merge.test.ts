// Benches sharded over several hosts: each runs `vitest bench --run --shard=i/M --reporter=blob`, then
// `vitest bench --run --merge-reports=<folder of the blobs>` prints one set of kernel tables and writes one JSON
// results file and one Markdown summary, as a single run over all the files does. The merges here replay recorded
// blobs of the two bench files of tests/shards/, so they need no GPU.
//
// The fixture, tests/fixtures/shard-blobs/, is written by scripts/record-shard-blobs.sh: the blobs of both shards
// (blobs/) with each shard's own JSON results (shard-1.json, shard-2.json), the blobs of both shards under -u
// (blobs-update/) with the baselines they recorded (baselines/), the JSON results of a single run over both files
// (single.json), and every run's exit code (exit-codes.json). Record it again on a GPU host, from the repository
// root, whenever this repository's Vitest version changes (a blob merges only into the Vitest that wrote it):
//
//   bash scripts/record-shard-blobs.sh tests/fixtures/shard-blobs
//
// The JSON files' case `metrics` are derived by the report code, not measured: when the roofline's ceilings change
// (float32's became max(FP32, TF32 / 3)), they were recomputed from the recorded cases, every measurement untouched.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify, stripVTControlCharacters } from 'node:util'
import { parse } from 'flatted'
import { beforeAll, describe, expect, it } from 'vitest'
import type { BenchRecord, ReportedBench, ResultsFile } from '../../src/report/json.js'
import { renderDeviceHeader, renderKernelResult } from '../../src/report/kernel-table.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { scratchFolder } from '../helpers/scratch.js'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const vitestBin = path.join(root, 'node_modules/vitest/vitest.mjs')
const fixture = path.join(root, 'tests/fixtures/shard-blobs')
const RECORD = 'record it again: bash scripts/record-shard-blobs.sh tests/fixtures/shard-blobs'

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(fixture, file), 'utf8')) as T
const single = readJson<ResultsFile>('single.json')
const shards = [readJson<ResultsFile>('shard-1.json'), readJson<ResultsFile>('shard-2.json')]
const codes = readJson<Record<string, number>>('exit-codes.json')

/** The blobs of one folder of the fixture, as Vitest wrote them: its version, then the file tasks. */
function blobs(folder: string): Array<{ name: string; text: string; version: string; files: Array<{ filepath: string; name: string }> }> {
  const dir = path.join(fixture, folder)
  return fs.readdirSync(dir).map((name) => {
    const text = fs.readFileSync(path.join(dir, name), 'utf8')
    const [version, files] = parse(text) as [string, Array<{ filepath: string; name: string }>]
    return { name, text, version, files }
  })
}

interface Merge {
  code: number
  output: string
  results: ResultsFile
  summary: string
}

const scratch = scratchFolder('kernelbench-shard-merge-')

/** `vitest bench --merge-reports` of a folder of blobs, with the JSON results file and the job summary asked for. */
async function merge(blobFolder: string, name: string): Promise<Merge> {
  const results = path.join(scratch, `${name}.json`)
  const summary = path.join(scratch, `${name}.md`)
  const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, CI: '1', KERNELBENCH_JSON: results, GITHUB_STEP_SUMMARY: summary }
  const args = [vitestBin, 'bench', '--run', '--config', 'tests/shards/vitest.config.ts', `--merge-reports=${blobFolder}`]
  let code = 0
  let output: string
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, args, { cwd: root, env })
    output = stdout + stderr
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    ;[code, output] = [e.code, e.stdout + e.stderr]
  }
  const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '')
  return { code, output: stripVTControlCharacters(output), results: JSON.parse(read(results) || '{"benches":[]}') as ResultsFile, summary: read(summary) }
}

const key = (bench: { file: string; name: string }) => `${bench.file} > ${bench.name}`
const sorted = (benches: readonly BenchRecord[]) => [...benches].sort((a, b) => key(a).localeCompare(key(b)))
/** The benches of both shards, each as its shard recorded it, keyed by file and name. */
const shardBenches = new Map(shards.flatMap((s) => s.benches).map((b) => [key(b), b]))

/** What any two runs of the same files agree on: which benches and cases ran, and how each ended. */
function rows(benches: readonly BenchRecord[]) {
  return sorted(benches).map((b) => ({
    bench: key(b),
    state: b.state,
    errors: b.errors.length,
    device: b.result?.device?.name,
    skipped: b.result?.skipped !== undefined,
    cases: b.result?.cases.map((c) => ({ name: c.name, params: c.params, status: c.outcome.status, timed: c.summary !== undefined, verdict: c.verdict?.kind })),
  }))
}

describe('a run sharded over several hosts, merged', () => {
  let merged: Merge
  let updated: Merge
  let elsewhere: Merge
  /** The checkout the blobs were recorded in ('/' at the end: a file's path ends in its name relative to the root). */
  const file = blobs('blobs')[0]!.files[0]!
  const recordedIn = file.filepath.slice(0, -file.name.length)
  const otherCheckout = '/elsewhere/another-host/checkout/'

  beforeAll(async () => {
    const moved = path.join(scratch, 'moved')
    fs.mkdirSync(moved)
    for (const blob of blobs('blobs')) fs.writeFileSync(path.join(moved, blob.name), blob.text.replaceAll(recordedIn, otherCheckout))
    ;[merged, updated, elsewhere] = await Promise.all([merge(path.join(fixture, 'blobs'), 'merged'), merge(path.join(fixture, 'blobs-update'), 'updated'), merge(moved, 'elsewhere')])
  })

  it('replays blobs of the installed Vitest', () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/vitest/package.json'), 'utf8')) as { version: string }
    for (const blob of [...blobs('blobs'), ...blobs('blobs-update')]) expect(blob.version, RECORD).toBe(version)
  })

  it('writes one JSON file with every bench of both shards, each exactly as its shard recorded it', () => {
    expect(merged.results.benches.length).toBeGreaterThan(0)
    expect(sorted(merged.results.benches)).toEqual(sorted(shards.flatMap((s) => s.benches)))
    expect(merged.results.versions.vitest).toBe(single.versions.vitest)
  })

  it('has the rows of a single run over all the files, with the same figures give or take the noise between runs', () => {
    expect(rows(merged.results.benches)).toEqual(rows(single.benches))
    const singleBenches = new Map(single.benches.map((b) => [key(b), b]))
    for (const bench of merged.results.benches) {
      const cases = new Map(singleBenches.get(key(bench))!.result?.cases.map((c) => [c.name, c]))
      for (const c of bench.result?.cases ?? []) {
        const other = cases.get(c.name)?.summary
        if (!c.summary || !other) continue
        expect(c.summary.median / other.median, `${key(bench)} '${c.name}'`).toBeGreaterThan(0.5)
        expect(c.summary.median / other.median, `${key(bench)} '${c.name}'`).toBeLessThan(2)
      }
    }
  })

  it('exits as the single run did: non-zero when the CI guard failed a bench on either shard', () => {
    expect(merged.code).toBe(codes.single)
    expect(merged.code).toBe(Math.max(codes['shard-1']!, codes['shard-2']!))
  })

  it('prints the device header and every kernel table, and writes the Markdown summary of all the benches', () => {
    const ordered: ReportedBench[] = merged.results.benches.map((b) => shardBenches.get(key(b)) as ReportedBench)
    const first = ordered.find((b) => b.result?.device && b.result.arch)?.result
    if (first) expect(merged.output).toContain(stripVTControlCharacters(renderDeviceHeader(first.device!, first.arch!, first, first.devices)))
    for (const { result } of ordered) if (result) expect(merged.output).toContain(stripVTControlCharacters(renderKernelResult(result)))
    expect(merged.summary).toBe(renderMarkdown(ordered))
  })

  it('under -u, names the baseline files that each shard wrote, relative to the root', () => {
    expect(updated.code).toBe(Math.max(codes['update-1']!, codes['update-2']!))
    expect(sorted(updated.results.benches).map(key)).toEqual(sorted(single.benches).map(key))
    for (const { result } of updated.results.benches) {
      for (const c of result?.cases ?? []) if (c.verdict) expect(c.verdict.kind).toBe('updated')
      if (!result?.baseline?.written) continue
      expect(fs.existsSync(path.join(root, result.baseline.file)), result.baseline.file).toBe(true)
      expect(updated.output).toContain(`baseline written: ${result.baseline.file}`)
    }
  })

  it('reads the same when the blobs were recorded in another checkout, but for the paths in its messages', () => {
    expect(elsewhere.code).toBe(merged.code)
    const backHome = JSON.parse(JSON.stringify(elsewhere.results.benches).replaceAll(otherCheckout, recordedIn)) as BenchRecord[]
    expect(sorted(backHome)).toEqual(sorted(merged.results.benches))
  })
})
