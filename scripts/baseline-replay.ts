// Replays the stored-baseline verdict (src/baseline/verdict.ts) on real runs: the baseline recorded from the first
// report files, as `vitest bench -u` once per file would record it, and each later file judged against it. Prints,
// per tolerance, the regressions and improvements (on a run of the recorded code, false alarms; on a run of really
// slower code, the regressions are what the gate caught) and the inconclusive cases, and the half-width of the change's
// interval. Which board ran each case is in the files (its GPU's UUID); a file from before results named the board is
// given as <file>@<board>, any label for its board. Pass runs of other boards to measure false alarms across boards: a
// run is judged by its own board's runs weighed against the other boards', or, on a board never recorded, by the other
// boards' with the spread between boards (docs/ci-gate.md). --run-spread and --board-spread replace the assumed
// spreads, to see what other defaults would do.
// With --slow F, every checked run is made F slower (its samples multiplied by 1 + F) before it is judged: how often the
// rule would see a change of that size, as a simulation on real noise (not a planted kernel). With --list-inconclusive,
// each inconclusive case is listed with its change and interval.
//   tsx scripts/baseline-replay.ts --record <a.json> [<b.json> …] --check <c.json> [<d.json> …] [--tolerance 0.02,0.05]
//     [--slow 0.05] [--list-inconclusive] [--run-spread 0.01] [--board-spread 0.01]
import { resolveBaselineSettings } from '../src/baseline/guard.js'
import { compareToBaseline } from '../src/baseline/verdict.js'
import { argList } from './arguments.js'
import { assumedSpreadArgs, measurementsOf, recordRuns, REPLAYED_GPU } from './baseline-runs.js'

/** A file's measurements by case, each with its board: its GPU's UUID, or the label after `@`. */
function measurements(arg: string) {
  const [file, label] = arg.split('@') as [string, string | undefined]
  return measurementsOf(file, label)
}

const recordFiles = argList('--record')
const checkFiles = argList('--check')
const tolerances = (argList('--tolerance')[0] ?? '0.02,0.05').split(',').map(Number)
const slow = Number(argList('--slow')[0] ?? 0)
const assumed = assumedSpreadArgs()
const listInconclusive = process.argv.includes('--list-inconclusive')
if (recordFiles.length === 0 || checkFiles.length === 0) {
  console.error('usage: tsx scripts/baseline-replay.ts --record <a.json> [...] --check <c.json> [...] [--tolerance 0.02,0.05]')
  process.exit(2)
}

// Recorded with the default baseline settings, as `-u` records them.
const entries = recordRuns(recordFiles.map(measurements), resolveBaselineSettings())
const checked = checkFiles.map((file) => [file, measurements(file)] as const)

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? NaN
const pct = (x: number) => `${(100 * x).toFixed(2)}%`
for (const tolerance of tolerances) {
  for (const [file, checkedCases] of checked) {
    let judged = 0
    const changes: string[] = []
    let regressions = 0
    const inconclusive: string[] = []
    const halfWidths: number[] = []
    for (const [key, measured] of checkedCases) {
      const entry = entries.get(key)
      if (!entry) continue
      const m = { ...measured, runtimeMs: measured.runtimeMs * (1 + slow), tflops: measured.tflops / (1 + slow), samplesMs: measured.samplesMs.map((x) => x * (1 + slow)) }
      const verdict = compareToBaseline(m, REPLAYED_GPU, entry, { tolerance, ...assumed })
      if (!('change' in verdict)) continue
      judged++
      halfWidths.push((verdict.interval.high - verdict.interval.low) / 2)
      const line = `${key}: ${pct(verdict.change)} [${pct(verdict.interval.low)}, ${pct(verdict.interval.high)}]`
      if (verdict.kind === 'regression') regressions++
      if (verdict.kind === 'regression' || verdict.kind === 'improvement') changes.push(`${verdict.kind} ${line}`)
      if (verdict.kind === 'inconclusive') inconclusive.push(line)
    }
    const read = `${regressions} regressions, ${changes.length - regressions} improvements`
    const seen = slow === 0 ? read : `made ${pct(slow)} slower: ${read}`
    console.log(
      `tolerance ${pct(tolerance)}, ${file}: ${judged} cases against ${recordFiles.length} recorded run(s): ${seen}, ` +
        `${inconclusive.length} inconclusive; half-width p50 ${pct(quantile(halfWidths, 0.5))}, p90 ${pct(quantile(halfWidths, 0.9))}, max ${pct(quantile(halfWidths, 1))}`,
    )
    for (const line of changes.slice(0, 10)) console.log(`  ${line}`)
    if (listInconclusive) for (const line of inconclusive) console.log(`  inconclusive ${line}`)
  }
}
