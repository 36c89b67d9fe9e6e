// The JSON results file and where the reporter's outputs go: the versioned schema (every field documented in
// docs/result-schema.md), the content kept from each result, atomic writes, and GITHUB_STEP_SUMMARY appends.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  RESULTS_FILE_SCHEMA,
  RESULTS_FILE_VERSION,
  buildResultsFile,
  serializeResultsFile,
  type ReportedBench,
  type ResultsFile,
  type ToolVersions,
} from '../../src/report/json.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { outputFiles, resolveReportSettings, splitReportOptions } from '../../src/report/options.js'
import { writeFileAtomic } from '../../src/cache/atomic-write.js'
import { writeReports } from '../../src/report/files.js'
import { FIXTURES, loadFixture } from '../fixtures/results/index.js'
import { useScratch } from '../helpers/scratch.js'

const TOOLS: ToolVersions = { vitestKernelBench: '0.1.0', vitest: '4.1.12', node: 'v20.19.0' }
const ENDED = new Date('2026-11-21T14:05:00.000Z')
const SCHEMA_DOC = fs.readFileSync(new URL('../../docs/result-schema.md', import.meta.url), 'utf8')

/** The file as a reader gets it: built, serialized and parsed back. */
function readBack(benches: ReportedBench[]): ResultsFile {
  return JSON.parse(serializeResultsFile(buildResultsFile(benches, TOOLS, ENDED))) as ResultsFile
}

/** Objects whose keys are data (case parameters) or documented elsewhere (MeasureOptions in src/spec/options.ts). */
const OPAQUE = new Set(['benches[].result.cases[].params', 'benches[].result.options'])

/** Every field path in `value`: 'benches[].result.cases[].summary.median', arrays of objects as '[]'. */
function fieldPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => fieldPaths(item, `${prefix}[]`))
  if (value === null || typeof value !== 'object' || OPAQUE.has(prefix)) return []
  return Object.entries(value).flatMap(([key, child]) => {
    const p = prefix ? `${prefix}.${key}` : key
    return [p, ...fieldPaths(child, p)]
  })
}

/** The fields docs/result-schema.md documents: a table row's first `name` under a heading naming its object. */
function documentedPaths(doc: string): Set<string> {
  const documented = new Set<string>()
  let object = ''
  for (const line of doc.split('\n')) {
    if (line.startsWith('### ')) object = /`([^`]+)`/.exec(line)?.[1] ?? ''
    const field = /^\| `([^`]+)` \|/.exec(line)?.[1]
    if (field) documented.add(object ? `${object}.${field}` : field)
  }
  return documented
}

describe('the results file schema', () => {
  it('is version 2, a constant the document states', () => {
    expect(RESULTS_FILE_VERSION).toBe(2)
    expect(SCHEMA_DOC).toContain(`Schema version: **${RESULTS_FILE_VERSION}**`)
    const file = readBack([loadFixture('sgemm-verdicts')])
    expect(file.schema).toBe(RESULTS_FILE_SCHEMA)
    expect(file.version).toBe(RESULTS_FILE_VERSION)
  })

  it('documents every field a run writes', () => {
    const written = new Set(fieldPaths(readBack(FIXTURES.map(loadFixture))))
    const documented = documentedPaths(SCHEMA_DOC)
    expect([...written].filter((p) => !documented.has(p))).toEqual([])
    // The walk reaches the deepest objects, so the check above covers them.
    expect(written).toContain('benches[].result.cases[].outcome.outputs[].comparison.maxAbsError')
    expect(written).toContain('benches[].result.cases[].metrics.solPercent')
  })
})

describe('buildResultsFile', () => {
  it('keeps every statistic, the raw samples, device, clocks, options and verdicts of each result', () => {
    const fixture = loadFixture('sgemm-verdicts')
    const file = readBack([fixture])
    expect(file.createdAt).toBe('2026-11-21T14:05:00.000Z')
    expect(file.versions).toEqual({ ...TOOLS, nvidiaDriver: '580.95.05', cudaDriver: '13.0', cudaRuntime: '13.0' })

    const bench = file.benches[0]!
    expect(bench).toMatchObject({ file: 'bench/sgemm.bench.ts', name: 'tiled sgemm', state: 'failed', errors: fixture.errors })
    const result = bench.result!
    const recorded = fixture.result!
    expect(result.device).toEqual(recorded.device)
    expect(result.options).toEqual(recorded.options)
    expect(result.baseline).toEqual({ file: '__kernelbench__/bench__sgemm.bench.ts.json', written: false })
    const [first] = result.cases
    const original = recorded.cases[0]!
    expect(Object.keys(first!.summary!).sort()).toEqual(['cv', 'max', 'mean', 'median', 'min', 'n', 'stdev'])
    expect(first!.summary).toEqual(original.summary)
    expect(first!.outcome).toEqual(original.outcome) // raw samples and clocks included
    expect(first!.verdict).toEqual(original.verdict)
    expect(result.cases.map((c) => c.verdict?.kind)).toEqual(['inconclusive', 'regression', 'improvement', 'no-baseline'])
  })

  it('adds metrics from the median to timed cases only, and geometric means per bench where no case failed', () => {
    const file = readBack([loadFixture('wrong-answer'), loadFixture('sol-over-100'), loadFixture('skipped-verification-throttled')])
    const [wrong, sol, passed] = file.benches.map((b) => b.result!)
    const timed = wrong!.cases[0]!
    // 2^20 floats: 2^20 FLOP and 12 × 2^20 B in 6.63 µs on an H100 SXM (3350 GB/s).
    expect(timed.metrics!.tflops).toBeCloseTo(2 ** 20 / (timed.summary!.median * 1e-3) / 1e12, 12)
    expect(timed.metrics!.gbPerSecond).toBeCloseTo((12 * 2 ** 20) / (timed.summary!.median * 1e-3) / 1e9, 9)
    expect(timed.metrics!.bandwidthPercent).toBeCloseTo((timed.metrics!.gbPerSecond / 3350) * 100, 9)
    expect(timed.metrics).toMatchObject({ bound: 'memory' })
    expect(wrong!.cases.slice(1).map((c) => c.metrics)).toEqual([undefined, undefined])
    // A wrong answer, a fault or a SOL above the roofline withholds the mean, and the file says why.
    expect(wrong).not.toHaveProperty('geometricMean')
    expect(wrong!.geometricMeanOmitted).toBe('no geometric mean: 2 cases failed')
    expect(sol!.cases[0]!.metrics!.solPercent).toBeGreaterThan(100)
    expect(sol).not.toHaveProperty('geometricMean')
    expect(sol!.geometricMeanOmitted).toBe('no geometric mean: 1 case failed')
    const [a, b] = passed!.cases.map((c) => c.summary!.median)
    expect(passed!.geometricMean!.cases).toBe(2)
    expect(passed!.geometricMean!.runtimeMs).toBeCloseTo(Math.sqrt(a! * b!), 9)
    expect(passed).not.toHaveProperty('geometricMeanOmitted')
  })

  it('writes an unknown clock as null and leaves out what does not apply', () => {
    const fixture = loadFixture('sol-over-100')
    const result = fixture.result!
    const noNvml: ReportedBench = {
      ...fixture,
      result: {
        ...result,
        device: { ...result.device!, startSmClockMHz: Number.NaN, driverRelease: undefined, nvmlError: 'libnvidia-ml.so.1 not found' },
        cases: result.cases.map((c) =>
          c.outcome.status === 'ok' && c.outcome.timing ? { ...c, outcome: { ...c.outcome, timing: { ...c.outcome.timing, meanSmClockMHz: Number.NaN } } } : c,
        ),
      },
    }
    const file = readBack([noNvml])
    const written = file.benches[0]!.result!
    expect(written.device!.startSmClockMHz).toBeNull()
    expect(written.cases.map((c) => (c.outcome.status === 'ok' ? c.outcome.timing!.meanSmClockMHz : 'untimed'))).toEqual([null, null])
    expect(file.versions).not.toHaveProperty('nvidiaDriver')
    expect(file.versions.cudaRuntime).toBe('13.0')
  })

  it('keeps a bench that failed without a result, with its errors', () => {
    const broken: ReportedBench = { file: 'bench/broken.bench.ts', name: 'broken', state: 'failed', errors: ['CompileError: expected a ";"'] }
    const file = readBack([broken])
    expect(file.benches).toEqual([broken])
    expect(file.versions).toEqual(TOOLS)
  })
})

describe('where the outputs go', () => {
  const root = '/project'

  it('resolves options against the root; KERNELBENCH_JSON wins over the json option', () => {
    const settings = resolveReportSettings({ json: 'out/results.json', markdown: 'kernelbench.md' })
    expect(outputFiles(settings, {}, root)).toEqual({ json: '/project/out/results.json', markdown: '/project/kernelbench.md', stepSummary: undefined })
    expect(outputFiles(settings, { KERNELBENCH_JSON: '/tmp/kb.json', KERNELBENCH_TEST_REPORT: 'x' }, root).json).toBe('/tmp/kb.json')
    expect(outputFiles(settings, { KERNELBENCH_JSON: '' }, root).json).toBe('/project/out/results.json')
    expect(outputFiles(resolveReportSettings(), { KERNELBENCH_JSON: 'kb.json' }, root).json).toBe('/project/kb.json')
  })

  it('appends to GITHUB_STEP_SUMMARY unless stepSummary is false', () => {
    const env = { GITHUB_STEP_SUMMARY: '/runner/_temp/step_summary_1' }
    expect(outputFiles(resolveReportSettings(), env, root)).toEqual({ json: undefined, markdown: undefined, stepSummary: '/runner/_temp/step_summary_1' })
    expect(outputFiles(resolveReportSettings({ stepSummary: false }), env, root).stepSummary).toBeUndefined()
  })

  it('checks the options and splits them from the plugin options', () => {
    expect(resolveReportSettings()).toEqual({ markdown: undefined, json: undefined, stepSummary: true, progress: true })
    expect(() => resolveReportSettings({ json: '' })).toThrow(/option json must be a non-empty file path/)
    expect(() => resolveReportSettings({ progress: 'yes' as never })).toThrow(/option progress must be a boolean/)
    const { report, rest } = splitReportOptions({ json: 'r.json', progress: false, targetCv: 0.02, device: 1 })
    expect(report).toEqual({ json: 'r.json', progress: false, markdown: undefined, stepSummary: undefined })
    expect(rest).toEqual({ targetCv: 0.02, device: 1 })
    expect(() => splitReportOptions({ markdown: 42 as never })).toThrow(/option markdown/)
  })
})

describe('writing the outputs', () => {
  const dir = useScratch('kb-report-')

  it('writeFileAtomic replaces the file and leaves no temp file', () => {
    const file = path.join(dir(), 'nested', 'results.json')
    writeFileAtomic(file, 'first\n')
    writeFileAtomic(file, 'second\n')
    expect(fs.readFileSync(file, 'utf8')).toBe('second\n')
    expect(fs.readdirSync(path.dirname(file))).toEqual(['results.json'])
  })

  it('writeFileAtomic removes its temp file when the rename fails', () => {
    const target = path.join(dir(), 'taken')
    fs.mkdirSync(target) // a directory where the file should go: the rename fails
    expect(() => writeFileAtomic(target, 'text')).toThrow()
    expect(fs.readdirSync(dir())).toEqual(['taken'])
  })

  it('writes the JSON and Markdown files, replacing them, and appends to the step summary once per run', () => {
    const benches = [loadFixture('sgemm-verdicts'), loadFixture('wrong-answer')]
    const files = { json: path.join(dir(), 'kb.json'), markdown: path.join(dir(), 'kernelbench.md'), stepSummary: path.join(dir(), 'summary.md') }
    fs.writeFileSync(files.stepSummary, '## An earlier step\n')

    expect(writeReports(benches, files, TOOLS, ENDED)).toEqual([files.json, files.markdown, files.stepSummary])
    writeReports(benches, files, TOOLS, ENDED)

    const markdown = renderMarkdown(benches)
    expect(fs.readFileSync(files.markdown, 'utf8')).toBe(markdown)
    expect(fs.readFileSync(files.stepSummary, 'utf8')).toBe(`## An earlier step\n${markdown}${markdown}`)
    expect(fs.readFileSync(files.json, 'utf8')).toBe(serializeResultsFile(buildResultsFile(benches, TOOLS, ENDED)))
    expect(fs.readdirSync(dir()).sort()).toEqual(['kb.json', 'kernelbench.md', 'summary.md'])
  })

  it('writes nothing it was not asked for', () => {
    const json = path.join(dir(), 'only.json')
    expect(writeReports([loadFixture('sol-over-100')], { json }, TOOLS, ENDED)).toEqual([json])
    expect(fs.readdirSync(dir())).toEqual(['only.json'])
  })
})
