/**
 * Several runs of the same benches judged together against their stored baselines (the `gate` command,
 * docs/ci-gate.md "Several runs judged together"): each case's runs on one board become one verdict
 * (compareRunsToBaseline), whose interval narrows as the runs' own spread averages out. Pure: the results files come
 * parsed, the baseline files through `readBaselineFile`.
 */
import type { BenchRecord } from '../report/json.js'
import { caseMeasurement } from './guard.js'
import { lookup, type BaselineFile } from './store.js'
import { compareRunsToBaseline, type Measurement, type Verdict, type VerdictOptions } from './verdict.js'

/** One case of one bench on one board, judged over the runs that timed it there. */
export interface CaseJudgedTogether {
  benchFile: string
  bench: string
  caseName: string
  board?: string
  /** How many of the given runs timed the case on this board. */
  runs: number
  verdict: Verdict
}

/** A bench (its file and name) of the runs, or its paired cases, left out, and why. */
export interface LeftOut {
  bench: string
  reason: string
}

/** The cases judged, and what the runs held that was not judged (a bench without a baseline file, paired cases). */
export interface RunsTogether {
  judged: CaseJudgedTogether[]
  notJudged: LeftOut[]
}

interface Gathered {
  benchFile: string
  bench: string
  caseName: string
  gpu: string
  board?: string
  baselineFile: string
  key: { bench: string; caseName: string; dtype: string; gpu: string }
  measurements: Measurement[]
  /** Whether a run's own guard compared the case with a baseline entry (its verdict has a change). */
  comparedInRun: boolean
}

/** Two runs of the same case with the same samples are one run given twice (a file passed twice, or copied). */
const samplesKey = (m: Measurement) => m.samplesMs.join(',')

/**
 * Every timed case of the runs, gathered by bench file, bench, dtype, case, GPU model, board and baseline file, and
 * judged against the baseline file each run's guard named. Cases without TFLOPS (no FLOP count) and paired A/B cases
 * (judged against their base, not a baseline) are left out; so are benches whose runs named no baseline file (not
 * timed in `vitest bench`, or failed before they were judged) and runs that recorded the baselines (`-u`: they are in
 * them). `notJudged` lists the benches of the last three.
 *
 * Throws where the runs cannot be judged as given: one run's samples given twice (the spread between runs would read
 * as none), or a baseline file that `readBaselineFile` does not find although a run's own guard compared the case
 * with it (judged from the wrong folder: every case would pass as without a baseline).
 */
export function judgeRunsTogether(
  runs: readonly (readonly BenchRecord[])[],
  readBaselineFile: (file: string) => BaselineFile | undefined,
  options: Partial<VerdictOptions>,
): RunsTogether {
  const gathered = new Map<string, Gathered>()
  const notJudged = new Map<string, LeftOut>()
  const leaveOut = (bench: string, reason: string) => notJudged.set(`${bench}\0${reason}`, { bench, reason })
  for (const benches of runs) {
    for (const { file, name, result } of benches) {
      if (!result || result.mode !== 'bench' || !result.device) continue
      const bench = `${file} · ${name}`
      if (result.cases.some((c) => c.paired)) leaveOut(bench, 'its paired A/B cases, judged against their base in their own run')
      if (!result.baseline) {
        leaveOut(bench, 'its run named no baseline file')
        continue
      }
      if (result.baseline.written) {
        leaveOut(bench, 'a run that recorded the baselines (`vitest bench -u`), which hold it already')
        continue
      }
      for (const c of result.cases) {
        if (c.paired) continue
        const board = c.gpu?.uuid ?? result.device.uuid
        const m = caseMeasurement(c, board)
        if (!m || !(m.tflops > 0)) continue
        const gpu = result.device.name
        const id = JSON.stringify([file, name, result.dtype, c.name, gpu, board, result.baseline.file])
        const comparedInRun = c.verdict?.change !== undefined
        const entry = gathered.get(id)
        if (!entry) {
          const key = { bench: result.bench, caseName: c.name, dtype: result.dtype, gpu }
          gathered.set(id, { benchFile: file, bench: name, caseName: c.name, gpu, board, baselineFile: result.baseline.file, key, measurements: [m], comparedInRun })
          continue
        }
        if (entry.measurements.some((earlier) => samplesKey(earlier) === samplesKey(m))) {
          throw new Error(`two of the runs hold the same samples of ${name} · ${c.name}: one run given twice (each run must be a \`vitest bench\` run of its own)`)
        }
        entry.measurements.push(m)
        entry.comparedInRun ||= comparedInRun
      }
    }
  }
  const judged = [...gathered.values()].map((g): CaseJudgedTogether => {
    const baselineFile = readBaselineFile(g.baselineFile)
    if (baselineFile === undefined && g.comparedInRun) {
      throw new Error(`the baseline file ${g.baselineFile}, which the runs were judged against, is not there: judge from the Vitest root the runs ran in, or name it with --root`)
    }
    const verdict = compareRunsToBaseline(g.measurements, g.gpu, lookup(baselineFile, g.key), options)
    return { benchFile: g.benchFile, bench: g.bench, caseName: g.caseName, board: g.board, runs: g.measurements.length, verdict }
  })
  return { judged, notJudged: [...notJudged.values()] }
}
