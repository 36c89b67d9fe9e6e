// Several runs judged together against a stored baseline: the verdict (compareRunsToBaseline), the gathering of
// results files (judgeRunsTogether) and the `gate` command. The streams are synthetic: what is tested is the rule.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { guardResult } from '../../src/baseline/guard.js'
import { judgeRunsTogether } from '../../src/baseline/runs-together.js'
import { readBaseline } from '../../src/baseline/store.js'
import { baselineRun, compareRunsToBaseline, compareToBaseline, type BaselineEntry, type Measurement } from '../../src/baseline/verdict.js'
import type { BenchRecord } from '../../src/report/json.js'
import { RESULTS_FILE_SCHEMA, RESULTS_FILE_VERSION } from '../../src/report/json.js'
import type { KernelBenchResult } from '../../src/shared/results.js'
import { runCli } from '../helpers/cli.js'
import { useScratch } from '../helpers/scratch.js'
import { seededNormal, timeStream } from '../helpers/time-streams.js'

const H200 = 'NVIDIA H200'
const BOARD = 'GPU-aaaa'
const OTHER_BOARD = 'GPU-bbbb'

/** A run of 201 samples around `medianMs` with this cv, on `board` (1e9 FLOP, so 1/median TFLOPS). */
function measured(seed: number, medianMs: number, cv: number, board = BOARD): Measurement {
  const samplesMs = timeStream(seededNormal(seed), 201, medianMs, cv)
  const median = [...samplesMs].sort((a, b) => a - b)[100]!
  return { tflops: 1 / median, runtimeMs: median, cv, samplesMs, board }
}

/** A baseline entry recorded from these runs, as `vitest bench -u` once per run keeps them. */
function entryOf(runs: readonly Measurement[]): BaselineEntry {
  const last = runs.at(-1)!
  return { tflops: last.tflops, runtimeMs: last.runtimeMs, cv: last.cv, gpu: H200, measuredAt: 'then', runs: runs.map((m) => baselineRun(m, 0.95, 'then')) }
}

describe('compareRunsToBaseline', () => {
  // A noisy small kernel (cv 3%) recorded three times on a board, then checked three times on it.
  const recorded = entryOf([1, 2, 3].map((seed) => measured(seed, 0.012, 0.03)))
  const slower = [11, 12, 13].map((seed) => measured(seed, 0.012 * 1.05, 0.03))

  it('one run is judged as compareToBaseline judges it', () => {
    expect(compareRunsToBaseline([slower[0]!], H200, recorded)).toEqual(compareToBaseline(slower[0]!, H200, recorded))
  })

  it('runs judged together narrow the interval by their own spread: a 5% slowdown one run leaves inconclusive, three find', () => {
    const alone = compareRunsToBaseline([slower[0]!], H200, recorded)
    const together = compareRunsToBaseline(slower, H200, recorded)
    if (!('interval' in alone) || !('interval' in together)) throw new Error('expected intervals')
    expect(alone.kind).toBe('inconclusive')
    expect(together).toMatchObject({ kind: 'regression', fails: true })
    expect(together.interval.high - together.interval.low).toBeLessThan(0.75 * (alone.interval.high - alone.interval.low))
    expect(together.message).toContain('3 runs of this board judged together')
    // The judged runs measure the spread too, as a group of their own: three recorded and three judged runs.
    expect(together.runSpread).toMatchObject({ runs: 6, measured: true })
  })

  it('runs of unchanged code judged together raise no alarm', () => {
    const same = [21, 22, 23].map((seed) => measured(seed, 0.012, 0.03))
    expect(compareRunsToBaseline(same, H200, recorded).kind).not.toMatch(/regression|improvement/)
  })

  it('runs that disagree among themselves widen the interval: their spread is measured, not only assumed', () => {
    const steady = [31, 32, 33].map((seed) => measured(seed, 0.012 * 1.03, 0.005))
    const scattered = [0.97, 1.03, 1.09].map((f, i) => measured(41 + i, 0.012 * f, 0.005))
    const quiet = entryOf([1, 2, 3].map((seed) => measured(seed, 0.012, 0.005)))
    const a = compareRunsToBaseline(steady, H200, quiet)
    const b = compareRunsToBaseline(scattered, H200, quiet)
    if (!('interval' in a) || !('interval' in b)) throw new Error('expected intervals')
    expect(b.runSpread.spread).toBeGreaterThan(2 * a.runSpread.spread)
    expect(a.kind).toBe('regression')
    expect(b.kind).toBe('inconclusive')
  })

  it('refuses no run and runs of several boards', () => {
    expect(() => compareRunsToBaseline([], H200, recorded)).toThrow('no run to judge')
    expect(() => compareRunsToBaseline([slower[0]!, measured(5, 0.012, 0.03, OTHER_BOARD)], H200, recorded)).toThrow('must come from one board')
  })
})

/** A bench result of one case per median (ms), timed on BOARD, judged against `baselineFile` where given. */
function benchResult(name: string, mediansMs: Record<string, number>, seed: number, baselineFile?: string): KernelBenchResult {
  const cases = Object.entries(mediansMs).map(([caseName, medianMs], i) => {
    const m = measured(seed * 100 + i, medianMs, 0.01)
    return {
      name: caseName,
      params: {},
      gpu: { index: 0, pciBusId: '0000:01:00.0', uuid: BOARD },
      flops: 1e9,
      bytes: 1e6,
      outcome: { status: 'ok', outputs: [], timing: { samplesMs: m.samplesMs } },
      summary: { median: m.runtimeMs, cv: m.cv },
    }
  })
  return {
    bench: name,
    problem: 'vector-add',
    dtype: 'float32',
    mode: 'bench',
    device: { name: H200, uuid: BOARD, index: 0 },
    cases,
    ...(baselineFile !== undefined && { baseline: { file: baselineFile, written: false } }),
  } as unknown as KernelBenchResult
}

const BENCH_FILE = 'bench/add.bench.ts'
const BASELINE_FILE = '__kernelbench__/bench__add.bench.ts.json'

/** Records `runs` of the bench as baselines under `root`, as `vitest bench -u` once per run would. */
function recordBaselines(root: string, runs: readonly KernelBenchResult[]): void {
  for (const result of runs) guardResult(result, { benchFile: BENCH_FILE, root, update: true, rules: { floors: {}, allowAboveRoofline: true } })
}

const asBench = (result: KernelBenchResult): BenchRecord => ({ file: BENCH_FILE, name: result.bench, state: 'passed', result, errors: [] }) as unknown as BenchRecord

describe('judgeRunsTogether', () => {
  const dir = useScratch('kb-gate-')

  it('judges each case over every run that timed it, and lists the benches it could not judge', () => {
    recordBaselines(dir(), [1, 2, 3].map((seed) => benchResult('add', { small: 0.01, large: 1 }, seed)))
    const runs = [4, 5, 6].map((seed) => [asBench(benchResult('add', { small: 0.0105, large: 1 }, seed, BASELINE_FILE))])
    runs[2]!.push(asBench(benchResult('unjudged', { x: 1 }, 7)))
    const paired = benchResult('paired', { y: 1 }, 8, BASELINE_FILE)
    paired.cases[0]!.paired = {} as NonNullable<(typeof paired.cases)[number]['paired']>
    runs[2]!.push(asBench(paired))
    const { judged, notJudged } = judgeRunsTogether(runs, (file) => readBaseline(path.join(dir(), file)), {})
    expect(judged.map((c) => [c.caseName, c.runs, c.board, c.verdict.kind])).toEqual([
      ['small', 3, BOARD, 'regression'],
      ['large', 3, BOARD, expect.stringMatching(/unchanged|inconclusive/)],
    ])
    // A run spread over several GPUs: a case timed on another board is judged with that board's runs only.
    const elsewhere = benchResult('add', { small: 0.0105 }, 9, BASELINE_FILE)
    elsewhere.cases[0]!.gpu = { ...elsewhere.cases[0]!.gpu!, uuid: OTHER_BOARD }
    const spread = judgeRunsTogether([...runs, [asBench(elsewhere)]], (file) => readBaseline(path.join(dir(), file)), {})
    expect(spread.judged.filter((c) => c.caseName === 'small').map((c) => [c.board, c.runs])).toEqual([[BOARD, 3], [OTHER_BOARD, 1]])
    expect(notJudged).toEqual([
      { bench: `${BENCH_FILE} · unjudged`, reason: 'its run named no baseline file' },
      { bench: `${BENCH_FILE} · paired`, reason: 'its paired A/B cases, judged against their base in their own run' },
    ])
  })

  it('keeps dtypes apart, leaves out runs that recorded the baselines, and refuses one run given twice', () => {
    recordBaselines(dir(), [1, 2].map((seed) => benchResult('add', { small: 0.01 }, seed)))
    const read = (file: string) => readBaseline(path.join(dir(), file))
    const half = { ...benchResult('add', { small: 0.02 }, 3, BASELINE_FILE), dtype: 'float16' } as KernelBenchResult
    const recording = benchResult('add', { small: 0.01 }, 4, BASELINE_FILE)
    recording.baseline!.written = true
    const { judged, notJudged } = judgeRunsTogether([[asBench(benchResult('add', { small: 0.01 }, 5, BASELINE_FILE)), asBench(half)], [asBench(recording)]], read, {})
    expect(judged.map((c) => [c.runs, c.verdict.kind])).toEqual([[1, expect.stringMatching(/unchanged|inconclusive/)], [1, 'no-baseline']])
    expect(notJudged).toEqual([{ bench: `${BENCH_FILE} · add`, reason: 'a run that recorded the baselines (`vitest bench -u`), which hold it already' }])
    const run = [asBench(benchResult('add', { small: 0.0105 }, 6, BASELINE_FILE))]
    expect(() => judgeRunsTogether([run, run], read, {})).toThrow('two of the runs hold the same samples of add · small: one run given twice')
  })

  it('refuses to pass cases as without a baseline when the baseline file their runs were judged against is not found', () => {
    const compared = benchResult('add', { small: 0.01 }, 1, BASELINE_FILE)
    compared.cases[0]!.verdict = { kind: 'unchanged', change: 0, message: 'unchanged', fails: false, floors: [] }
    expect(() => judgeRunsTogether([[asBench(compared)]], () => undefined, {})).toThrow(
      `the baseline file ${BASELINE_FILE}, which the runs were judged against, is not there: judge from the Vitest root the runs ran in, or name it with --root`,
    )
  })
})

describe('the gate command (npx tsx src/cli/cli.ts gate)', () => {
  const dir = useScratch('kb-gate-cli-')
  const cli = (...args: string[]) => runCli('gate', ...args)

  /** Results files of runs with these medians, judged against the baselines under the scratch root. */
  function resultsFiles(label: string, mediansMs: Record<string, number>, seeds: number[]): string[] {
    return seeds.map((seed) => {
      const file = path.join(dir(), `${label}-${seed}.json`)
      const results = { schema: RESULTS_FILE_SCHEMA, version: RESULTS_FILE_VERSION, createdAt: 'now', versions: {}, benches: [asBench(benchResult('add', mediansMs, seed, BASELINE_FILE))] }
      fs.writeFileSync(file, JSON.stringify(results))
      return file
    })
  }

  it('fails on a case that the runs together find slower, naming it; passes on runs of unchanged code', () => {
    recordBaselines(dir(), [1, 2, 3].map((seed) => benchResult('add', { small: 0.01, large: 1 }, seed)))
    const slower = cli(...resultsFiles('slower', { small: 0.0105, large: 1 }, [4, 5, 6]), '--root', dir())
    expect(slower.status).toBe(1)
    expect(slower.stdout).toContain('judged 2 cases over 3 runs')
    expect(slower.stdout).toMatch(/FAIL add · small \(bench\/add\.bench\.ts, board GPU-aaaa\): regression: slower than baseline by 4\.\d%/)
    expect(slower.stdout).toContain('3 runs of this board judged together')
    expect(slower.stdout).toMatch(/^1 regression, 1 (unchanged|inconclusive)$/m)
    const same = cli(...resultsFiles('same', { small: 0.01, large: 1 }, [7, 8, 9]), '--root', dir())
    expect(same.stderr).toBe('')
    expect(same.status).toBe(0)
    expect(same.stdout).not.toContain('FAIL')
  })

  it('gathers many inconclusive cases on one line, with how wide their intervals are and what they would fail on', () => {
    const six = (ms: number) => Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f'].map((name) => [name, ms]))
    recordBaselines(dir(), [benchResult('add', six(0.01), 1)])
    const run = cli(...resultsFiles('near', six(0.0101), [2]), '--root', dir())
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(
      /^ {2}inconclusive 6 cases whose interval \(half-width \d\.\d% to \d\.\d%\) is too wide to say whether the change exceeds the tolerance: they fail on slowdowns beyond about \d\.\d% to \d\.\d% \(more runs, or a paired A\/B run, judge smaller ones\)$/m,
    )
    expect(run.stdout).toMatch(/^6 inconclusive$/m)
  })

  it('writes the verdicts to the job summary where the job has one', () => {
    recordBaselines(dir(), [1, 2].map((seed) => benchResult('add', { small: 0.01 }, seed)))
    const summary = path.join(dir(), 'summary.md')
    const files = resultsFiles('slower', { small: 0.0105 }, [4, 5, 6])
    const run = runCliWithEnv({ GITHUB_STEP_SUMMARY: summary }, 'gate', ...files, '--root', dir())
    expect(run.status).toBe(1)
    const markdown = fs.readFileSync(summary, 'utf8')
    expect(markdown).toContain('### Kernel gate: 3 runs judged together')
    expect(markdown).toMatch(/\| ❌ add · small \| -4\.\d% \[-\d\.\d%, -\d\.\d%\] \| regression \| 3 \|/)
  })

  it('says what is wrong with its arguments', () => {
    const none = cli()
    expect(none.status).toBe(2)
    expect(none.stderr).toContain('gate needs one or more results files')
    const files = resultsFiles('any', { small: 0.01 }, [1])
    const badTolerance = cli(...files, '--tolerance', 'five')
    expect(badTolerance.status).toBe(2)
    expect(badTolerance.stderr).toContain("--tolerance must be a fraction, e.g. 0.01 (got 'five')")
    const badConfidence = cli(...files, '--confidence', '95')
    expect(badConfidence.status).toBe(2)
    expect(badConfidence.stderr).toContain('--confidence must be a number between 0 and 1 (0.95 = 95%), got 95')
    const recording = path.join(dir(), 'recording.json')
    const recorded = JSON.parse(fs.readFileSync(files[0]!, 'utf8'))
    recorded.benches[0].result.baseline.written = true
    fs.writeFileSync(recording, JSON.stringify(recorded))
    const nothing = cli(recording, '--root', dir())
    expect(nothing.status).toBe(1)
    expect(nothing.stderr).toContain(`no case to judge: the files hold no case timed by \`vitest bench\` and judged against a baseline file (${BENCH_FILE} · add: a run that recorded the baselines`)
    const twice = cli(files[0]!, files[0]!)
    expect(twice.status).toBe(2)
    expect(twice.stderr).toContain('gate was given one results file twice')
    const noBaseline = cli(...files, '--root', dir())
    expect(noBaseline.status).toBe(0)
    expect(noBaseline.stdout).toContain('1 without a baseline')
  })
})

function runCliWithEnv(env: Record<string, string>, ...args: string[]) {
  const saved = { ...process.env }
  Object.assign(process.env, env)
  try {
    return runCli(...args)
  } finally {
    for (const key of Object.keys(env)) if (saved[key] === undefined) delete process.env[key]
  }
}
