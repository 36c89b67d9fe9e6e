// The rule for 'flagged' (caseFlags: a figure to distrust, orange in the charts) on recorded results: the H200
// runs of tests/fixtures/shard-blobs (honest code: noise-stable stops above the target, a few samples screened out)
// and tests/fixtures/results. Routine drops and the stopping reason are details; SOL above 100%, a limit stop far
// above the target CV, a large share of samples dropped and skipped verification are flags.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { TimingResult } from '../../src/shared/messages.js'
import { benchEntries, casePoints, type CasePoint, type ReportSource } from '../../src/report/charts/cases.js'
import type { ReportedBench } from '../../src/report/json.js'
import { caseFigures, DROPPED_SHARE, LIMIT_CV_FACTOR } from '../../src/report/kernel-table.js'
import { readResultsFiles } from '../../src/report/read-results.js'
import type { CaseResult } from '../../src/shared/results.js'
import { loadFixture } from '../fixtures/results/index.js'
import { fixtureResultsFile } from '../fixtures/results/results-file.js'

const shards = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/shard-blobs')
const RECORDED: ReportSource[] = [
  ...readResultsFiles(['single.json', 'shard-1.json', 'shard-2.json'].map((f) => path.join(shards, f))),
  { name: 'results.json', file: fixtureResultsFile() },
]

const kinds = (bench: ReportedBench, caseName: string) => {
  const c = bench.result!.cases.find((x) => x.name === caseName)!
  return caseFigures(bench.result!, c)!.flags.map((f) => f.kind)
}

function timingOf(c: CaseResult): TimingResult {
  if (c.outcome.status !== 'ok' || !c.outcome.timing) throw new Error(`case ${c.name} was not timed`)
  return c.outcome.timing
}

/** A recorded case with its samples, CV, drops and stop replaced (the rest as recorded). */
function variant(name: Parameters<typeof loadFixture>[0], caseName: string, change: { n?: number; cv?: number; timing?: Partial<TimingResult> }): ReportedBench {
  const bench = loadFixture(name)
  const c = bench.result!.cases.find((x) => x.name === caseName)!
  c.summary = { ...c.summary!, ...(change.n !== undefined && { n: change.n }), ...(change.cv !== undefined && { cv: change.cv }) }
  Object.assign(timingOf(c), change.timing)
  return bench
}

describe('caseFlags on recorded runs', () => {
  const points = casePoints(benchEntries(RECORDED))
  const label = (p: CasePoint) => `${p.bench.source} · ${p.bench.result.bench} · ${p.case.name}`

  it('flags only the unverified, heavily throttled sgemm among the cases that did not fail', () => {
    const passed = points.filter((p) => p.figures && p.status !== 'failed')
    expect(passed).toHaveLength(20)
    expect(passed.filter((p) => p.status === 'flagged').map(label)).toEqual([
      'results.json · sgemm (unverified) · 4096x4096x4096',
      'results.json · sgemm (unverified) · 8192x8192x8192',
    ])
  })

  it('leaves the H200 runs unflagged: noise-stable stops at a CV of 1.5 to 3% with 2 to 5 samples screened out', () => {
    const h200 = points.filter((p) => p.bench.source !== 'results.json' && p.figures)
    expect(h200).toHaveLength(8)
    for (const p of h200) {
      expect(p.figures!.stopReason).toBe('noise-stable')
      expect(p.figures!.cv).toBeGreaterThan(p.bench.result.options.targetCv)
      expect(p.figures!.droppedInterference).toBeGreaterThan(0)
      expect(p.figures!.flags).toEqual([])
    }
  })

  it('does not flag 4 of 197 samples dropped for host stalls with a noise-stable stop', () => {
    const bench = variant('wrong-answer', 'n = 2^20', { n: 193, timing: { droppedInterference: 4, stopReason: 'noise-stable' } })
    expect(kinds(bench, 'n = 2^20')).toEqual([])
  })

  it('flags a SOL above 100%: failed by the guard, flagged where allowAboveRoofline accepted it', () => {
    const bench = loadFixture('sol-over-100')
    expect(kinds(bench, 'n = 2^24')).toEqual(['sol'])
    expect(kinds(bench, 'n = 2^26')).toEqual([])
    const source = (b: ReportedBench): ReportSource[] => [{ name: 'r.json', file: { ...fixtureResultsFile(['sol-over-100']), benches: [b] } }]
    const status = (b: ReportedBench) => casePoints(benchEntries(source(b))).map((p) => p.status)
    expect(status(bench)).toEqual(['failed', 'ok'])
    bench.result!.cases[0]!.verdict = { kind: 'no-baseline', fails: false, message: 'no baseline', floors: [] }
    expect(status(bench)).toEqual(['flagged', 'ok'])
  })

  it(`flags a stop by the time or iteration limit with a CV over ${LIMIT_CV_FACTOR}× the target, not below it or at another stop`, () => {
    // 1.65% at max-time, as the recorded unverified 8192³ sgemm stopped: under twice the 1% target.
    const at = (cv: number, stopReason: TimingResult['stopReason']) =>
      kinds(variant('wrong-answer', 'n = 2^20', { cv, timing: { stopReason } }), 'n = 2^20')
    expect(at(0.05, 'max-time')).toEqual(['noise'])
    expect(at(0.05, 'max-iterations')).toEqual(['noise'])
    expect(at(0.05, 'noise-stable')).toEqual([])
    expect(at(0.0165, 'max-time')).toEqual([])
    expect(at(0.021, 'max-time')).toEqual(['noise'])
  })

  it(`flags more than ${DROPPED_SHARE * 100}% of the samples taken dropped, throttled and screened together`, () => {
    // 8 (6 throttled, 2 screened) of 49, and 23 of 135: both over a tenth.
    expect(kinds(loadFixture('skipped-verification-throttled'), '4096x4096x4096')).toEqual(['dropped', 'unverified'])
    const drops = (throttled: number, interference: number) =>
      kinds(variant('wrong-answer', 'n = 2^20', { n: 90, timing: { droppedThrottled: throttled, droppedInterference: interference } }), 'n = 2^20')
    expect(drops(5, 5)).toEqual([])
    expect(drops(6, 5)).toEqual(['dropped'])
  })

  it('gives each flag its reason in words', () => {
    const reasons = casePoints(benchEntries([{ name: 'r.json', file: fixtureResultsFile(['skipped-verification-throttled']) }]))[1]!.reasons
    expect(reasons).toEqual(['23 of 135 samples dropped (over 10.0%): throttling or interference ran through the timing', 'verification skipped'])
  })
})
