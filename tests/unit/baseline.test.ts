import { spawn } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  BASELINE_SCHEMA_VERSION,
  BaselineFileError,
  baselinePath,
  keyString,
  lookup,
  mergeEntries,
  parseKeyString,
  readBaseline,
  serializeBaseline,
  writeBaseline,
  type BaselineFile,
  type BaselineKey,
} from '../../src/baseline/store.js'
import {
  DEFAULT_VERDICT_OPTIONS,
  baselineRun,
  checkFloors,
  compareToBaseline,
  boardSpread,
  runSpread,
  type BaselineEntry,
  type Measurement,
} from '../../src/baseline/verdict.js'
import { medianEstimate } from '../../src/shared/median-change.js'
import { idealStream } from '../helpers/time-streams.js'
import { useScratch } from '../helpers/scratch.js'

const H100 = 'NVIDIA H100 80GB HBM3'
const A100 = 'NVIDIA A100-SXM4-80GB'

const MEASURED_AT = '2025-01-01T00:00:00.000Z'

/** A baseline entry of `tflops` at 1 ms, as written before runs were kept (no `runs`). */
function base(tflops: number, cv = 0.001, gpu = H100): BaselineEntry {
  return { tflops, runtimeMs: 1, cv, gpu, measuredAt: MEASURED_AT }
}
/** A baseline entry whose runs had these medians (ms), each with the log standard error `medianSe`. */
function withRuns(mediansMs: number[], medianSe = 0.001): BaselineEntry {
  const runs = mediansMs.map((runtimeMs) => ({ runtimeMs, medianSe, n: 101, measuredAt: MEASURED_AT }))
  return { tflops: 1 / mediansMs.at(-1)!, runtimeMs: mediansMs.at(-1)!, cv: 0.01, gpu: H100, measuredAt: MEASURED_AT, runs }
}
/** A run of 101 samples with median `runtimeMs` (1e9 FLOP, so 1/runtimeMs TFLOPS) and coefficient of variation `cv`. */
function run(runtimeMs: number, cv = 0.01, samplesMs = idealStream(101, runtimeMs, cv)): Measurement {
  return { tflops: 1 / runtimeMs, runtimeMs, cv, samplesMs }
}
/** A measurement of `tflops` at an assumed 1 ms median, for the checks that never reach the statistics. */
function meas(tflops: number): Measurement {
  return { tflops, runtimeMs: 1, cv: 0.001, samplesMs: idealStream(101, 1, 0.001) }
}

/**
 * compareToBaseline with a 2% tolerance and 0.5% assumed spread: the figures below were worked out for these (a
 * team that records baselines from several runs sets a tighter gate than the defaults, which are tested on their own).
 */
const TIGHT = { tolerance: 0.02, runSpread: 0.005 }
const judge = (...[measured, gpu, baseline, opts]: Parameters<typeof compareToBaseline>) =>
  compareToBaseline(measured, gpu, baseline, { ...TIGHT, ...opts })

describe('compareToBaseline', () => {
  it('has the documented defaults', () => {
    expect(DEFAULT_VERDICT_OPTIONS).toEqual({ tolerance: 0.01, confidence: 0.95, runSpread: 0.01, boardSpread: 0.01, failOnImprovement: false, failOnInconclusive: false })
  })

  it('combines the run\'s median error, the baseline runs\' and their spread as documented, and says so in the message', () => {
    const baseline = withRuns([1, 1.01, 0.99, 1.005, 0.995])
    const current = run(1.05)
    const v = judge(current, H100, baseline)
    if (!('interval' in v) || !v.interval) throw new Error('expected an interval')
    // The formula of docs/ci-gate.md, computed here on its own.
    const logs = [1, 1.01, 0.99, 1.005, 0.995].map(Math.log)
    const mean = logs.reduce((a, b) => a + b) / 5
    const s2 = logs.reduce((a, x) => a + (x - mean) ** 2, 0) / 4
    // The assumed spread pooled in, as two runs' worth, is the runs' 1% cv, larger than the 0.5% of TIGHT.
    const spread2 = (4 * (s2 - 0.001 ** 2) + 2 * 0.01 ** 2) / 6
    const se = medianEstimate(current.samplesMs, 0.95)!.logSe
    const d = Math.log(1.05) - mean
    const half = 1.959964 * Math.sqrt(se ** 2 + spread2 + (spread2 + 0.001 ** 2) / 5)
    expect(v.runSpread).toEqual({ spread: expect.closeTo(Math.sqrt(spread2), 9), runs: 5, measured: true })
    expect(v.change).toBeCloseTo(Math.exp(-d) - 1, 12)
    expect(v.interval.low).toBeCloseTo(Math.exp(-d - half) - 1, 6)
    expect(v.interval.high).toBeCloseTo(Math.exp(-d + half) - 1, 6)
    expect(v).toMatchObject({ kind: 'regression', fails: true })
    expect(v.message).toBe(
      `regression: slower than baseline by 4.8% [${(-(v.interval.high) * 100).toFixed(1)}%, ${(-(v.interval.low) * 100).toFixed(1)}%] ` +
        `(tolerance 2.0%; between-run spread ${(100 * Math.sqrt(spread2)).toFixed(1)}% from 5 runs; 95% interval; 0.952 TFLOPS vs 1.00 in the baseline)`,
    )
  })

  it('a run of the same stream as its baseline is unchanged; a small change with an assumed spread is inconclusive, not a failure', () => {
    const samples = idealStream(101, 1, 0.004)
    const recorded = baselineRun(run(1, 0.004, samples), 0.95, MEASURED_AT)
    const entry = { ...withRuns([1]), cv: 0.004, runs: [recorded] }
    const same = judge(run(1, 0.004, samples), H100, entry)
    expect(same).toMatchObject({ kind: 'unchanged', change: 0, fails: false, runSpread: { spread: 0.005, runs: 1, measured: false } })
    expect(same.message).toMatch(/^unchanged: \+0\.0% \[-1\.\d%, \+1\.\d%\]: the whole interval is within the tolerance 2\.0% \(tolerance 2\.0%; between-run spread 0\.5% assumed, not measured from 1 run/)
    const near = judge(run(1.015, 0.004), H100, entry)
    expect(near).toMatchObject({ kind: 'inconclusive', fails: false })
    expect(near.message).toContain('straddles the tolerance 2.0%')
    expect(judge(run(1.015, 0.004), H100, entry, { failOnInconclusive: true })).toMatchObject({ kind: 'inconclusive', fails: true })
  })

  it('a noisy case assumes its cv as the spread between runs: its interval is wider than its median error alone', () => {
    const entry = (cv: number) => ({ ...withRuns([1]), cv, runs: [baselineRun(run(1, cv), 0.95, MEASURED_AT)] })
    const quiet = judge(run(1.06, 0.004), H100, entry(0.004))
    const noisy = judge(run(1.06, 0.08), H100, entry(0.08))
    expect(quiet).toMatchObject({ kind: 'regression', runSpread: { spread: 0.005, runs: 1, measured: false } })
    // A cv of 8% moved such cases by about as much from run to run: a 6% change is not told from that.
    expect(noisy).toMatchObject({ kind: 'inconclusive', fails: false, runSpread: { spread: 0.08, runs: 1, measured: false } })
    expect(noisy.message).toContain('between-run spread 8.0% assumed')
  })

  it('improvement does not fail by default, and fails with failOnImprovement', () => {
    const v = judge(run(0.9), H100, withRuns([1, 1.002, 0.998]))
    expect(v).toMatchObject({ kind: 'improvement', fails: false, change: expect.closeTo(1 / 0.9 - 1, 4) })
    expect(v.message).toMatch(/^improvement: faster than baseline by 11\.1% \[\d+\.\d%, \d+\.\d%\]/)
    expect(v.message).not.toContain('failOnImprovement')
    const strict = judge(run(0.9), H100, withRuns([1, 1.002, 0.998]), { failOnImprovement: true })
    expect(strict).toMatchObject({ kind: 'improvement', fails: true })
    expect(strict.message).toContain('fails because failOnImprovement is set')
  })

  it('the between-run spread widens the interval: runs that disagree turn a regression inconclusive', () => {
    const quiet = judge(run(1.04), H100, withRuns([1, 1.001, 0.999, 1, 1]))
    const noisy = judge(run(1.04), H100, withRuns([1, 1.03, 0.97, 1.02, 0.98]))
    expect(quiet.kind).toBe('regression')
    expect(noisy.kind).toBe('inconclusive')
    expect(noisy.message).toContain('between-run spread 2.2% from 5 runs')
  })

  it('against one recorded run, a bimodal run is widened by its modes\' gap and a short one judged by its cv (or the assumed spread): small changes are inconclusive with the reason, large ones fail', () => {
    const baseline = withRuns([1])
    const twoModes = idealStream(101, 1, 0.002).map((t, i) => (i % 5 < 2 ? t * 1.1 : t))
    const bimodal = judge(run(1, 0.04, twoModes), H100, baseline)
    expect(bimodal).toMatchObject({ kind: 'inconclusive', fails: false })
    expect(bimodal.message).toContain('the run is bimodal (59% of samples near 1.000, 41% near 1.100)')
    // Half the modes' 10% gap widens the interval by about ±9.3%: five times slower is far beyond it.
    const slowModes = judge(run(5, 0.04, twoModes.map((t) => t * 5)), H100, baseline)
    expect(slowModes).toMatchObject({ kind: 'regression', fails: true })
    const short = judge(run(1.3, 0.01, [1.3, 1.31, 1.29]), H100, baseline)
    expect(short).toMatchObject({ kind: 'regression', fails: true, change: expect.closeTo(1 / 1.3 - 1, 9) })
    expect(short.message).toContain("the run's sample CV stands for its median's error (3 samples)")
    const shortNear = judge(run(1.01, 0.01, [1.01, 1.02, 1.0]), H100, baseline)
    expect(shortNear).toMatchObject({ kind: 'inconclusive', fails: false })
    expect(shortNear.message).toContain('too few samples in the run (3) for a 95% interval of its median')
    // One or two samples (a kernel of seconds against the time limit) have no cv worth the name: the assumed spread
    // between runs (here the baseline's 1% cv) stands for their median's error, so a kernel far slower still fails.
    const two = judge(run(1.3, 0.01, [1.3, 1.31]), H100, baseline)
    expect(two).toMatchObject({ kind: 'regression', fails: true })
    expect(two.message).toContain("the assumed between-run spread stands for its median's error (2 samples)")
    const one = judge(run(1.01, 0, [1.01]), H100, baseline)
    expect(one).toMatchObject({ kind: 'inconclusive', fails: false })
    expect(one.message).toContain('too few samples in the run (1) for a 95% interval of its median')
  })

  it('against runs whose spread was measured, a bimodal run is widened only by what the runs did not vary by, and a short one judged by its cv', () => {
    const twoModes = idealStream(101, 1, 0.002).map((t, i) => (i % 5 < 2 ? t * 1.1 : t))
    // Runs whose medians moved by more than half the modes' 10% gap measured that doubt: the run is judged as it stands.
    const movedAsMuch = judge(run(1, 0.04, twoModes), H100, withRuns([0.92, 1, 1.08, 1]))
    expect(movedAsMuch.message).not.toContain('bimodal')
    // Runs that agreed within 0.2% never saw the gap (as a matrix-scalar on an H200 whose run split into modes 10%
    // apart): the rest of the doubt widens the interval, so the gap does not read as a change, and the reason says so.
    const neverSaw = judge(run(1.06, 0.04, twoModes.map((t) => t * 1.06)), H100, withRuns([1, 1.002, 0.998]))
    expect(neverSaw).toMatchObject({ kind: 'inconclusive', fails: false })
    expect(neverSaw.message).toContain('the run is bimodal (59% of samples near 1.060, 41% near 1.166)')
    // A smaller mode of under a third holds the median in run after run: no doubt, and a 6% change is judged.
    const firmModes = idealStream(101, 1, 0.002).map((t, i) => (i % 5 < 1 ? t * 1.1 : t))
    expect(judge(run(1.06, 0.02, firmModes.map((t) => t * 1.06)), H100, withRuns([1, 1.002, 0.998])).kind).toBe('regression')
    const short = judge(run(1.3, 0.01, [1.3, 1.31, 1.29]), H100, withRuns([1, 1, 1]))
    expect(short).toMatchObject({ kind: 'regression', fails: true })
    // Its median's error is its cv, 1%: the interval is ±1.96·√(1% ² + the spread's terms) around −23.1%.
    expect(short.message).toMatch(/^regression: slower than baseline by 23\.1% \[2\d\.\d%, 2\d\.\d%\]/)
    // Fewer than three samples have no cv worth the name: the assumed spread stands for their median's error.
    expect(judge(run(1.3, 0.01, [1.3, 1.31]), H100, withRuns([1, 1, 1])).kind).toBe('regression')
  })

  it('two recorded boards that agree do not make a third board that stands 3% apart a false alarm (as on three H200s)', () => {
    const onBoard = (board: string, mediansMs: number[]) => mediansMs.map((runtimeMs) => ({ runtimeMs, medianSe: 0.0003, n: 5, measuredAt: MEASURED_AT, board }))
    // A naive sgemm on three H200 boards (2026-11-28): 47.13 ms on two, 45.64 ms on the third, at the same clock.
    const entry = { ...withRuns([47.13]), cv: 0.0005, runs: [...onBoard('B', [47.14, 47.12]), ...onBoard('C', [47.14, 47.12])] }
    const third = compareToBaseline({ ...run(45.64, 0.0005, idealStream(5, 45.64, 0.0005)), board: 'A' }, H100, entry)
    expect(third).toMatchObject({ kind: 'inconclusive', fails: false, change: expect.closeTo(47.13 / 45.64 - 1, 3) })
    // Its own runs, once recorded, judge it (weighed against the other boards'): the change reads under 0.5%, not +3.3%.
    const recorded = { ...entry, runs: [...entry.runs, ...onBoard('A', [45.65, 45.63])] }
    const judged = compareToBaseline({ ...run(45.64, 0.0005, idealStream(5, 45.64, 0.0005)), board: 'A' }, H100, recorded)
    expect(judged).toMatchObject({ fails: false, change: expect.closeTo(0, 2) })
  })

  it('an entry from before runs were kept is still judged: its cv stands for its median\'s uncertainty, and the message names the fix', () => {
    const legacy = base(1, 0.01)
    const v = judge(run(1.3), H100, legacy)
    expect(v).toMatchObject({ kind: 'regression', fails: true })
    expect(v.message).toContain("the baseline is from before runs were kept, so its sample CV stands for its median's uncertainty (re-record it with `vitest bench -u`)")
    expect(judge(run(1.01), H100, legacy).kind).toBe('inconclusive')
  })

  it('runSpread subtracts what the runs\' own errors explain, and pools the rest with the assumed spread', () => {
    const runs = (medians: number[], medianSe: number) => [withRuns(medians, medianSe).runs!]
    expect(runSpread(runs([1], 0.001), 0.005)).toEqual({ spread: 0.005, runs: 1, measured: false })
    // Two runs that agree exactly: only the assumed spread's two runs of evidence are left, against three in all.
    expect(runSpread(runs([1, 1], 0.001), 0.005).spread).toBeCloseTo(0.005 * Math.sqrt(2 / 3), 12)
    // Runs that differ by less than their own errors explain: no excess.
    expect(runSpread(runs([1, 1.001], 0.01), 0).spread).toBe(0)
    expect(runSpread(runs([1, 1.02, 0.98, 1.01, 0.99], 0), 0).spread).toBeCloseTo(Math.sqrt((4 * 0.000250) / 6), 3)
  })

  it('runSpread over several boards takes each run about its own board\'s mean: a board\'s speed is not a run\'s spread', () => {
    const board = (medians: number[]) => withRuns(medians, 0).runs!
    // Two boards 3% apart whose runs agree within each: no spread between runs beyond the assumed one's share.
    expect(runSpread([board([1, 1]), board([1.03, 1.03])], 0.01).spread).toBeCloseTo(0.01 * Math.sqrt(2 / 4), 12)
    // One run on each board: no board has two, so the spread is assumed.
    expect(runSpread([board([1]), board([1.03])], 0.01)).toEqual({ spread: 0.01, runs: 2, measured: false })
  })

  it('boardSpread measures how far the boards\' means lie apart beyond their runs\' noise, pooled with the assumed spread and never below it', () => {
    const board = (medians: number[]) => withRuns(medians, 0).runs!
    const none = { spread: 0, runs: 4, measured: true }
    expect(boardSpread([board([1, 1])], none, 0.0075)).toEqual({ spread: 0.0075, boards: 1, measured: false })
    // Means ln 1 and ln 1.03 have a variance of (ln 1.03)² / 2 over one degree of freedom.
    const apart = boardSpread([board([1, 1]), board([1.03, 1.03])], none, 0.0075)
    expect(apart).toEqual({ spread: expect.closeTo(Math.sqrt((Math.log(1.03) ** 2 / 2 + 0.0075 ** 2) / 2), 12), boards: 2, measured: true })
    // Boards whose means differ by no more than their runs' spread explains: the assumed spread, not its pooled share
    // (boards come in kinds, and two that agree say little of a third).
    expect(boardSpread([board([1, 1]), board([1.001, 1.001])], { spread: 0.01, runs: 4, measured: true }, 0.0075).spread).toBe(0.0075)
  })

  it('a run is judged by its own board\'s runs, weighed against the other boards\'; on a board never recorded, against every board with the spread between boards', () => {
    const onBoard = (board: string, mediansMs: number[]) => mediansMs.map((runtimeMs) => ({ runtimeMs, medianSe: 0.001, n: 101, measuredAt: MEASURED_AT, board }))
    // Board B runs 3% slower than board A, steadily.
    const entry = { ...withRuns([1]), runs: [...onBoard('A', [1, 1.001, 0.999]), ...onBoard('B', [1.03, 1.031, 1.029])] }
    // Its own three runs know its speed far better than the other board's mean within a 1.6% spread between boards.
    const ownB = judge({ ...run(1.03, 0.004), board: 'B' }, H100, entry)
    expect(ownB).toMatchObject({ kind: 'unchanged', change: expect.closeTo(0, 2) })
    expect(ownB.message).toMatch(/between-run spread 0\.6% from 6 runs; between-board spread 1\.6% from 2 boards: this board's runs weigh 98% against the other boards'/)
    // A third board as fast as A: against the two boards' mean it reads 1.5% faster, within what boards differ by.
    const other = judge({ ...run(1, 0.004), board: 'C' }, H100, entry)
    expect(other).toMatchObject({ kind: 'inconclusive', change: expect.closeTo(Math.sqrt(1.03) - 1, 4), boardSpread: { boards: 2, measured: true } })
    expect(other.message).toMatch(/between-board spread 1\.6% from 2 boards, as no run of this board was recorded \(`vitest bench -u` on it records one\)/)
    // Runs of one board, checked on another: the assumed spread between boards widens the interval.
    const single = { ...withRuns([1]), runs: onBoard('A', [1, 1.001, 0.999]) }
    const sameBoard = judge({ ...run(1.05, 0.004), board: 'A' }, H100, single)
    const newBoard = judge({ ...run(1.05, 0.004), board: 'D' }, H100, single, { boardSpread: 0.03 })
    expect(sameBoard.kind).toBe('regression')
    expect(newBoard).toMatchObject({ kind: 'inconclusive', boardSpread: { spread: 0.03, boards: 1, measured: false } })
    expect(newBoard.message).toContain('between-board spread 3.0% assumed, as no run of this board was recorded')
  })

  it('a case whose calls copy to or from the host is judged across boards with a spread of that share of its time: another host\'s copies are no false alarm, its own board\'s runs still judge it', () => {
    const onBoard = (board: string, mediansMs: number[]) =>
      mediansMs.map((runtimeMs) => ({ runtimeMs, medianSe: 0.002, n: 101, measuredAt: MEASURED_AT, board, hostShare: 0.3 }))
    // A 7 µs reduction whose shape copy is 30% of its time, recorded on two boards of one host, checked on another host
    // where it reads 10% slower (as on a 2-GPU H200 host, 2026-11-28).
    const entry = { ...withRuns([0.007]), cv: 0.01, runs: [...onBoard('A', [0.00704, 0.00705]), ...onBoard('B', [0.00706, 0.00707])] }
    const otherHost = { ...run(0.0078, 0.01), board: 'X', hostShare: 0.3 }
    const judged = compareToBaseline(otherHost, H100, entry)
    expect(judged).toMatchObject({ kind: 'inconclusive', fails: false, boardSpread: { spread: 0.15 } })
    expect(judged.message).toContain("between-board spread 15.0% from 2 boards (at least 15.0%: 30.0% of its time is the host's)")
    // The same case without copies reads as a regression: the copies, not the change, widened it.
    const plain = (runs: typeof entry.runs) => runs.map(({ hostShare: _, ...r }) => r)
    expect(compareToBaseline({ ...otherHost, hostShare: 0 }, H100, { ...entry, runs: plain(entry.runs) })).toMatchObject({ kind: 'regression' })
    // Where this run alone saw the copies (a baseline from before the share was kept), it still widens.
    expect(compareToBaseline(otherHost, H100, { ...entry, runs: plain(entry.runs) })).toMatchObject({ kind: 'inconclusive', boardSpread: { spread: 0.15 } })
    // Its own board's runs, once recorded, judge it: 10% slower there is a regression.
    const recorded = { ...entry, runs: [...entry.runs, ...onBoard('X', [0.0078, 0.00781])] }
    expect(compareToBaseline({ ...otherHost, ...run(0.0086, 0.01) }, H100, recorded)).toMatchObject({ kind: 'regression' })
    // A share too small to matter leaves the assumed spread between boards and the message as they were.
    const small = compareToBaseline({ ...otherHost, hostShare: 0.01 }, H100, { ...entry, runs: plain(entry.runs) })
    expect(small.message).not.toContain('copies')
  })

  it('boards that kept a probe are judged by the recorded boards of their kind, with half the assumed spread between boards; a board of no recorded kind, with half the probes\' distance', () => {
    const onBoard = (board: string, boardProbeMs: number, mediansMs: number[]) =>
      mediansMs.map((runtimeMs) => ({ runtimeMs, medianSe: 0.001, n: 101, measuredAt: MEASURED_AT, board, boardProbeMs }))
    // A kernel that reads beyond the L2 on two kinds of H200 (2026-11-28/29): 45.6 ms where the probe takes 5.85 ms,
    // 47.1 ms where it takes 6.04 ms.
    const entry = { ...withRuns([45.6]), runs: [...onBoard('A', 5.85, [45.6, 45.62]), ...onBoard('B', 6.04, [47.1, 47.12])] }
    const onC = (runtimeMs: number, boardProbeMs?: number): Measurement => ({ ...run(runtimeMs, 0.005), board: 'C', ...(boardProbeMs && { boardProbeMs }) })
    // Board C, of A's kind, is judged by A's runs alone: unchanged at A's speed, and 3.5% slower is a regression.
    const same = compareToBaseline(onC(45.6, 5.86), H100, entry)
    expect(same).toMatchObject({ change: expect.closeTo(0, 3), boardSpread: { spread: 0.005, boards: 1, measured: false } })
    expect(same.message).toContain('between-board spread 0.5% assumed (at least 0.5%: boards of its kind, their board probes within 0.2%; 1 board of another kind left out)')
    // B's runs, left out of C's expected speed, still measure how far a run moves on its board.
    expect(same.message).toContain('between-run spread 0.7% from 4 runs')
    expect(compareToBaseline(onC(45.6 * 1.035, 5.86), H100, entry)).toMatchObject({ kind: 'regression' })
    // Without probes it is judged by both kinds' mean, within the assumed 1% at least: the same slowdown is not seen.
    const plain = { ...entry, runs: entry.runs.map(({ boardProbeMs: _, ...r }) => r) }
    expect(compareToBaseline(onC(45.6 * 1.035), H100, plain)).toMatchObject({ kind: 'inconclusive' })
    expect(compareToBaseline(onC(45.6 * 1.035, 5.86), H100, plain)).toMatchObject({ kind: 'inconclusive' })
    // Board D, whose probe is of another kind than A's, against A's runs alone: 5% slower than A is within what the
    // kinds may differ by (an online softmax read 4.8% apart on them), not a regression as it is within the assumed 1%.
    const onlyA = { ...entry, runs: entry.runs.filter((r) => r.board === 'A') }
    const onD = (boardProbeMs?: number): Measurement => ({ ...run(45.6 * 1.05, 0.005), board: 'D', ...(boardProbeMs && { boardProbeMs }) })
    const otherKind = compareToBaseline(onD(6.04), H100, onlyA)
    expect(otherKind).toMatchObject({ kind: 'inconclusive', boardSpread: { spread: expect.closeTo(Math.log(6.04 / 5.85) / 2, 6) } })
    expect(otherKind.message).toContain('(at least 1.6%: no recorded board of its kind, their board probes 3.2% apart)')
    expect(compareToBaseline(onD(), H100, onlyA)).toMatchObject({ kind: 'regression' })
  })

  it('no baseline never fails', () => {
    const v = judge(meas(12.3), H100, undefined)
    expect(v).toEqual({ kind: 'no-baseline', fails: false, message: expect.stringContaining('12.3 TFLOPS') })
    expect(v.message).toContain('no baseline')
    expect(v.message).toContain(H100)
  })

  it('a baseline from another GPU model is not compared', () => {
    const v = judge(meas(1), H100, base(100, 0.01, A100))
    expect(v.kind).toBe('other-gpu')
    expect(v.fails).toBe(false)
    if (v.kind !== 'other-gpu') throw new Error('unreachable')
    expect(v.baselineGpu).toBe(A100)
    expect(v.message).toContain(A100)
    expect(v.message).toContain(H100)
    expect(v.message).toContain('not compared')
  })

  it('rejects nonsense inputs', () => {
    expect(() => judge(meas(Number.NaN), H100, base(10))).toThrow(RangeError)
    expect(() => judge(meas(10), H100, base(0))).toThrow(RangeError)
    expect(() => judge(meas(10), H100, base(10), { tolerance: -1 })).toThrow(RangeError)
    expect(() => judge(meas(10), H100, base(10), { confidence: 95 })).toThrow(/confidence must be a number between 0 and 1/)
  })
})

describe('checkFloors', () => {
  const m = { tflops: 12.3, runtimeMs: 2.5, solPercent: 62 }

  it('is empty when every floor holds (equality passes)', () => {
    expect(checkFloors(m, {})).toEqual([])
    expect(checkFloors(m, { minTflops: 12.3, minGflops: 12000, maxRuntimeMs: 2.5, minSolPercent: 62 })).toEqual([])
  })

  it('reports one message per violated floor', () => {
    const out = checkFloors(m, { minTflops: 15, minGflops: 13000, maxRuntimeMs: 2, minSolPercent: 70 })
    expect(out).toHaveLength(4)
    expect(out[0]).toContain('minTflops 15')
    expect(out[0]).toContain('12.3 TFLOPS')
    expect(out[1]).toContain('minGflops 13000')
    expect(out[1]).toContain('12300')
    expect(out[2]).toContain('maxRuntimeMs 2')
    expect(out[2]).toContain('2.500 ms')
    expect(out[3]).toContain('minSolPercent 70')
    expect(out[3]).toContain('62.0%')
    expect(checkFloors(m, { minTflops: 1, maxRuntimeMs: 1 })).toEqual([
      'runtime 2.500 ms is above the ceiling maxRuntimeMs 1',
    ])
  })

  it('skips minSolPercent when solPercent is unknown', () => {
    expect(checkFloors({ tflops: 1, runtimeMs: 1 }, { minSolPercent: 50 })).toEqual([])
  })

  it('treats NaN measurements as violations', () => {
    expect(checkFloors({ tflops: Number.NaN, runtimeMs: Number.NaN }, { minTflops: 1, maxRuntimeMs: 1 })).toHaveLength(2)
  })
})

describe('keys and paths', () => {
  const k: BaselineKey = { bench: 'tiled sgemm', caseName: '4096x4096x4096', dtype: 'float32', gpu: H100 }

  it('keyString is human readable and round-trips', () => {
    expect(keyString(k)).toBe('tiled sgemm › 4096x4096x4096 › float32 › NVIDIA H100 80GB HBM3')
    expect(parseKeyString(keyString(k))).toEqual(k)
  })

  it('escapes separators inside names so keys never collide', () => {
    const a = { ...k, bench: 'a › b', caseName: 'c' }
    const b = { ...k, bench: 'a', caseName: 'b › c' }
    expect(keyString(a)).not.toBe(keyString(b))
    expect(parseKeyString(keyString(a))).toEqual(a)
    expect(parseKeyString(keyString(b))).toEqual(b)
    const weird = { bench: 'x\\', caseName: ' ›', dtype: '\\›', gpu: 'g ' }
    expect(parseKeyString(keyString(weird))).toEqual(weird)
    expect(parseKeyString('only › three › parts')).toBeUndefined()
  })

  it('baselinePath flattens the bench path under __kernelbench__', () => {
    const root = path.join(os.tmpdir(), 'proj')
    expect(baselinePath(root, 'bench/gemm/sgemm.bench.ts')).toBe(
      path.join(root, '__kernelbench__', 'bench__gemm__sgemm.bench.ts.json'),
    )
    expect(baselinePath(root, path.join(root, 'bench', 'x.bench.ts'))).toBe(
      path.join(root, '__kernelbench__', 'bench__x.bench.ts.json'),
    )
    expect(() => baselinePath(root, '../elsewhere.bench.ts')).toThrow(/not inside/)
  })
})

describe('merge, lookup, stable output', () => {
  const k = (bench: string, caseName: string, gpu = H100, dtype = 'float32'): BaselineKey => ({
    bench,
    caseName,
    dtype,
    gpu,
  })
  const updates: Array<[BaselineKey, BaselineEntry]> = [
    [k('sgemm', '1024'), base(10)],
    [k('sgemm', '4096'), base(40)],
    [k('copy', 'big'), base(0.5)],
    [k('sgemm', '1024', A100), base(7, 0.001, A100)],
    [k('sgemm', '1024', H100, 'float16'), base(90)],
  ]

  it('the file does not depend on the order of updates', () => {
    const a = serializeBaseline(mergeEntries(undefined, updates))
    const b = serializeBaseline(mergeEntries(undefined, [...updates].reverse()))
    const c = serializeBaseline(mergeEntries(undefined, [updates[2]!, updates[0]!, updates[4]!, updates[3]!, updates[1]!]))
    expect(b).toBe(a)
    expect(c).toBe(a)
    const keys = Object.keys(JSON.parse(a).entries as object)
    expect(keys).toEqual([...keys].sort())
    expect(keys).toHaveLength(5)
    expect(a.endsWith('}\n')).toBe(true)
    expect(a).toContain('\n  "version": 1,\n')
  })

  it('merge keeps entries that are not updated and replaces those that are', () => {
    const prev = mergeEntries(undefined, updates)
    const next = mergeEntries(prev, [[k('sgemm', '1024'), base(11)]])
    expect(Object.keys(next.entries)).toHaveLength(5)
    expect(next.entries[keyString(k('sgemm', '1024'))]!.tflops).toBe(11)
    expect(next.entries[keyString(k('sgemm', '1024', A100))]!.tflops).toBe(7)
    expect(next.entries[keyString(k('copy', 'big'))]!.tflops).toBe(0.5)
    expect(prev.entries[keyString(k('sgemm', '1024'))]!.tflops).toBe(10) // previous not mutated
    expect(next.version).toBe(BASELINE_SCHEMA_VERSION)
  })

  it('merge rejects an entry whose gpu disagrees with its key', () => {
    expect(() => mergeEntries(undefined, [[k('a', 'b'), base(1, 0, A100)]])).toThrow(/gpu/)
  })

  it('lookup prefers the same GPU, falls back to another GPU for the same case, else undefined', () => {
    const f = mergeEntries(undefined, updates)
    expect(lookup(f, k('sgemm', '1024'))!.tflops).toBe(10)
    expect(lookup(f, k('sgemm', '1024', A100))!.tflops).toBe(7)
    const other = lookup(f, k('sgemm', '4096', A100))
    expect(other!.gpu).toBe(H100)
    expect(judge(meas(1), A100, other).kind).toBe('other-gpu')
    expect(lookup(f, k('sgemm', '4096', A100, 'float16'))).toBeUndefined() // dtype differs
    expect(lookup(f, k('sgemm', '2048'))).toBeUndefined()
    expect(lookup(undefined, k('sgemm', '1024'))).toBeUndefined()
    expect(judge(meas(1), H100, lookup(f, k('sgemm', '2048'))).kind).toBe('no-baseline')
  })
})

describe('reading and writing files', () => {
  const dir = useScratch('kb-baseline-', 'all')

  const good = (): BaselineFile =>
    mergeEntries(undefined, [[{ bench: 'b', caseName: 'c', dtype: 'float32', gpu: H100 }, base(12)]])

  it('absent file reads as undefined', () => {
    expect(readBaseline(path.join(dir(), 'nope.json'))).toBeUndefined()
  })

  it('writes (creating directories) and reads back, keys sorted, 2-space, trailing newline', () => {
    const p = path.join(dir(), 'deep', 'er', 'x.json')
    const f = mergeEntries(undefined, [
      [{ bench: 'z', caseName: 'c', dtype: 'float32', gpu: H100 }, base(1)],
      [{ bench: 'a', caseName: 'c', dtype: 'float32', gpu: H100 }, base(2)],
    ])
    writeBaseline(p, f)
    const text = fs.readFileSync(p, 'utf8')
    expect(text).toBe(`${JSON.stringify(f, null, 2)}\n`)
    expect(text.indexOf('"a › c')).toBeLessThan(text.indexOf('"z › c'))
    expect(readBaseline(p)).toEqual(f)
    expect(fs.readdirSync(path.dirname(p))).toEqual(['x.json']) // no temp files left
  })

  function expectMalformed(name: string, content: string, problem: RegExp): void {
    const p = path.join(dir(), name)
    fs.writeFileSync(p, content)
    let err: unknown
    try {
      readBaseline(p)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(BaselineFileError)
    const e = err as BaselineFileError
    expect(e.path).toBe(p)
    expect(e.message).toContain(p)
    expect(e.problem).toMatch(problem)
  }

  it('bad JSON names the path', () => {
    expectMalformed('bad.json', '{"version": 1, "entries": {', /not valid JSON/)
    expectMalformed('empty.json', '', /not valid JSON/)
  })

  it('wrong version names the path and the versions', () => {
    expectMalformed('v2.json', JSON.stringify({ ...good(), version: 2 }), /unsupported version 2, expected 1/)
    expectMalformed('nov.json', JSON.stringify({ entries: {} }), /unsupported version undefined/)
  })

  it('an entry missing tflops names the path, the entry and the field', () => {
    const f = good() as unknown as { entries: Record<string, Record<string, unknown>> }
    const key = Object.keys(f.entries)[0]!
    delete f.entries[key]!.tflops
    expectMalformed('notflops.json', JSON.stringify(f), /entry "b › c › float32 › NVIDIA H100 80GB HBM3" is missing "tflops"/)
  })

  it('other malformed contents', () => {
    expectMalformed('arr.json', '[]', /not a JSON object/)
    expectMalformed('noentries.json', '{"version":1}', /"entries"/)
    const f = good() as unknown as { entries: Record<string, Record<string, unknown>> }
    const key = Object.keys(f.entries)[0]!
    expectMalformed('strtflops.json', JSON.stringify({ version: 1, entries: { [key]: { ...f.entries[key], tflops: '12' } } }), /"tflops" = "12"/)
    expectMalformed('gpu.json', JSON.stringify({ version: 1, entries: { [key]: { ...f.entries[key], gpu: A100 } } }), /keyed for GPU/)
    expectMalformed('key.json', JSON.stringify({ version: 1, entries: { nokey: f.entries[key] } }), /key/)
    expectMalformed('date.json', JSON.stringify({ version: 1, entries: { [key]: { ...f.entries[key], measuredAt: 'soon' } } }), /not a date/)
  })

  it('a run keeps its share of copies off the device through a write and a read; a share outside 0 to 1 is refused', () => {
    const p = path.join(dir(), 'copies.json')
    const runs = [{ runtimeMs: 1, medianSe: 0.001, n: 101, measuredAt: MEASURED_AT, hostShare: 0.25 }, withRuns([1]).runs![0]!]
    const f = mergeEntries(undefined, [[{ bench: 'b', caseName: 'c', dtype: 'float32', gpu: H100 }, { ...base(1), runs }]])
    writeBaseline(p, f)
    const key = Object.keys(f.entries)[0]!
    expect(readBaseline(p)!.entries[key]!.runs).toEqual(runs)
    const entry = { ...f.entries[key], runs: [{ ...runs[0], hostShare: 1.5 }] }
    expectMalformed('share.json', JSON.stringify({ version: 1, entries: { [key]: entry } }), /run 0 has "hostShare" = 1.5, expected a number from 0 to 1/)
  })

  it('a run keeps its board\'s probe through a write and a read; a probe that is not a positive time is refused', () => {
    const p = path.join(dir(), 'probes.json')
    const runs = [{ runtimeMs: 1, medianSe: 0.001, n: 101, measuredAt: MEASURED_AT, board: 'GPU-1', boardProbeMs: 5.86 }, withRuns([1]).runs![0]!]
    const f = mergeEntries(undefined, [[{ bench: 'b', caseName: 'c', dtype: 'float32', gpu: H100 }, { ...base(1), runs }]])
    writeBaseline(p, f)
    const key = Object.keys(f.entries)[0]!
    expect(readBaseline(p)!.entries[key]!.runs).toEqual(runs)
    const entry = { ...f.entries[key], runs: [{ ...runs[0], boardProbeMs: 0 }] }
    expectMalformed('probe.json', JSON.stringify({ version: 1, entries: { [key]: entry } }), /run 0 has "boardProbeMs" = 0, expected a finite number > 0/)
  })

  it('a run keeps its board through a write and a read; a run with an empty board is refused', () => {
    const p = path.join(dir(), 'boards.json')
    const runs = [{ runtimeMs: 1, medianSe: 0.001, n: 101, measuredAt: MEASURED_AT, board: 'GPU-5108da83-e7f5-1223-0143-53f8def875ed' }, withRuns([1]).runs![0]!]
    const f = mergeEntries(undefined, [[{ bench: 'b', caseName: 'c', dtype: 'float32', gpu: H100 }, { ...base(1), runs }]])
    writeBaseline(p, f)
    expect(readBaseline(p)!.entries[Object.keys(f.entries)[0]!]!.runs).toEqual(runs)
    const key = Object.keys(f.entries)[0]!
    const entry = { ...f.entries[key], runs: [{ ...runs[0], board: '' }] }
    expectMalformed('board.json', JSON.stringify({ version: 1, entries: { [key]: entry } }), /run 0 has "board" = "", expected a non-empty string/)
  })
})

describe('atomic writes survive SIGKILL', () => {
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
  const writer = path.join(repoRoot, 'tests', 'fixtures', 'baseline-writer.ts')
  const COUNT = 3000
  const dir = useScratch('kb-atomic-', 'all')

  /**
   * Run the writer (one node process with the tsx loader, so SIGKILL hits the process that writes; `npx tsx` would
   * put a wrapper process in between) and SIGKILL it after `delayMs`, counted from spawn or, if afterReady, from
   * its first complete write.
   */
  function runAndKill(target: string, delayMs: number, afterReady: boolean): Promise<NodeJS.Signals | null> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', writer, target, String(COUNT)], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stderr = ''
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
      const kill = (): void => {
        setTimeout(() => child.kill('SIGKILL'), delayMs)
      }
      if (afterReady) {
        let out = ''
        child.stdout.on('data', (d: Buffer) => {
          const had = out.includes('ready')
          out += d.toString()
          if (!had && out.includes('ready')) kill()
        })
      } else {
        child.stdout.resume()
        kill()
      }
      child.on('error', reject)
      child.on('exit', (code, signal) => {
        if (signal === null) reject(new Error(`writer exited with ${code} before being killed: ${stderr}`))
        else resolve(signal)
      })
    })
  }

  function expectAbsentOrComplete(target: string): 'absent' | 'complete' {
    if (!fs.existsSync(target)) return 'absent'
    const text = fs.readFileSync(target, 'utf8')
    const f = readBaseline(target)! // throws on a torn file
    expect(text.endsWith('}\n')).toBe(true)
    const entries = Object.values(f.entries)
    expect(entries).toHaveLength(COUNT)
    const gens = new Set(entries.map((e) => e.runtimeMs))
    expect(gens.size).toBe(1) // one generation: not a mix of two writes
    return 'complete'
  }

  it('the target is always absent or a complete write', async () => {
    const seen = { absent: 0, complete: 0 }
    let tmpLeft = 0
    // Each run starts a Node process with tsx (about 0.7 s): 12 runs, 8 of them killed after the writer is ready.
    for (let i = 0; i < 12; i++) {
      const afterReady = i % 3 !== 0
      const sub = path.join(dir(), `run-${i}`)
      const target = path.join(sub, 'b.json')
      const delay = afterReady ? Math.floor(Math.random() * 120) : Math.floor(Math.random() * 600)
      const signal = await runAndKill(target, delay, afterReady)
      expect(signal).toBe('SIGKILL')
      seen[expectAbsentOrComplete(target)]++
      if (fs.existsSync(sub)) tmpLeft += fs.readdirSync(sub).filter((n) => n.includes('.tmp-')).length
    }
    // every after-ready run must have left a complete file
    expect(seen.complete).toBeGreaterThanOrEqual(8)
    // informational: how often the kill landed mid-write (a temp file left behind)
    console.info(`atomic write: ${seen.complete} complete, ${seen.absent} absent, ${tmpLeft} kills mid-write`)
  })
})
