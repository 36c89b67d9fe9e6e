// Replays the stored-baseline verdict (src/baseline/verdict.ts) over several boards' runs in each way a team could
// record them (docs/ci-gate.md, "Against a stored baseline"): a board's own run or two, another board's first run, its
// first two, and so on (as many as it has), two other boards (two runs each), every other board, and every other board
// with one run of its own. Each time, the runs not recorded
// are checked: a run of the recorded code that reads a regression or an improvement is a false alarm, and a planted
// run (every CUDA solution made really slower, scripts/baseline-plant.sh) that reads a regression is caught there.
// Prints, per way, the false alarms and the planted cases caught in each planted run (fewest–most), then the cases
// that raised false alarms. A board is its label and its runs of the recorded code (one or more), then its planted runs:
//   tsx scripts/baseline-scenarios.ts --board A a1.json a2.json --planted a5.json --board B b1.json b2.json …
//     [--tolerance 0.01] [--run-spread 0.01] [--board-spread 0.01] [--host-shares h1.json …] [--probe-case '<bench> · <case>'] [--no-probes]
// --host-shares: runs that kept each case's host's share, for runs timed before it was kept; --probe-case: a case whose
// median in a board's first run stands in for its board's probe, for runs timed before it was kept; --no-probes: as if
// no run had kept one.
import { resolveBaselineSettings } from '../src/baseline/guard.js'
import { compareToBaseline, SAME_KIND_PROBES, type BaselineEntry, type Measurement } from '../src/baseline/verdict.js'
import { argList } from './arguments.js'
import { assumedSpreadArgs, hostShareArgs, measurementsOf, probeStandIn, recordRuns, REPLAYED_GPU } from './baseline-runs.js'

interface Board {
  label: string
  unchanged: string[]
  planted: string[]
}

/** The --board groups, in order; --planted adds to the board before it. */
function boardsFromArgs(): Board[] {
  const boards: Board[] = []
  let into: string[] | undefined
  for (let i = 2; i < process.argv.length; i++) {
    const arg = process.argv[i]!
    if (arg === '--board') {
      boards.push({ label: process.argv[++i]!, unchanged: [], planted: [] })
      into = boards.at(-1)!.unchanged
    } else if (arg === '--planted' && boards.length > 0) into = boards.at(-1)!.planted
    else if (arg.startsWith('--')) into = undefined
    else into?.push(arg)
  }
  return boards
}

const boards = boardsFromArgs()
if (boards.length < 2 || boards.some((b) => b.unchanged.length === 0)) {
  console.error('usage: tsx scripts/baseline-scenarios.ts --board A a1.json a2.json [--planted a5.json …] --board B b1.json b2.json … [--tolerance 0.01]')
  process.exit(2)
}
const options = { tolerance: Number(argList('--tolerance')[0] ?? 0.01), ...assumedSpreadArgs() }

const hostShares = hostShareArgs()
const standIns = new Map(boards.map((b) => [b.label, probeStandIn(b.unchanged[0]!)]))
const withoutProbes = process.argv.includes('--no-probes')
/** A run's measurements as if its board's probe had not been kept. */
const dropProbes = (run: Map<string, Measurement>) => new Map([...run].map(([key, { boardProbeMs: _, ...m }]) => [key, m]))
// Each file's measurements by case, labelled with its board (the label, whatever UUID the file names), read once.
const read = new Map<string, Map<string, Measurement>>()
function measurements(file: string, board: string): Map<string, Measurement> {
  const key = `${file}@${board}`
  if (!read.has(key)) {
    const run = measurementsOf(file, board, hostShares, standIns.get(board))
    read.set(key, withoutProbes ? dropProbes(run) : run)
  }
  return read.get(key)!
}

type Run = { file: string; board: string }
const recording = resolveBaselineSettings(options)
/** The baseline entries `vitest bench -u` would write, once per run in this order. */
const record = (runs: Run[]): Map<string, BaselineEntry> => recordRuns(runs.map(({ file, board }) => measurements(file, board)), recording)

interface Tally {
  falseAlarms: string[]
  caught: number[]
}
const tallies = new Map<string, Tally>()
/** Checks `runs` of `board` against `entries`, tallied under `way`. */
function check(way: string, entries: Map<string, BaselineEntry>, board: Board, runs: { unchanged: string[]; planted: string[] }): void {
  const tally = tallies.get(way) ?? { falseAlarms: [], caught: [] }
  tallies.set(way, tally)
  for (const [planted, files] of [[false, runs.unchanged], [true, runs.planted]] as const) {
    for (const file of files) {
      let regressions = 0
      for (const [name, m] of measurements(file, board.label)) {
        const verdict = compareToBaseline(m, REPLAYED_GPU, entries.get(name), options)
        if (verdict.kind === 'regression') regressions++
        if ((verdict.kind === 'regression' && !planted) || verdict.kind === 'improvement') tally.falseAlarms.push(`${board.label}: ${name}: ${verdict.message}`)
      }
      if (planted) tally.caught.push(regressions)
    }
  }
}

const runsOf = (b: Board, count = b.unchanged.length): Run[] => b.unchanged.slice(0, count).map((file) => ({ file, board: b.label }))
const everyRun = (b: Board) => ({ unchanged: b.unchanged, planted: b.planted })
// Where boards have probes, the ways that record other boards are tallied by how many of them are of the board's kind.
const probes = new Map(boards.map((b) => [b.label, [...measurements(b.unchanged[0]!, b.label).values()].find((m) => m.boardProbeMs)?.boardProbeMs]))
const sameKind = (a: Board, b: Board) => {
  const [pa, pb] = [probes.get(a.label), probes.get(b.label)]
  return pa !== undefined && pb !== undefined && Math.abs(Math.log(pa / pb)) <= SAME_KIND_PROBES
}
const kinds = (board: Board, recorded: Board[]) =>
  probes.get(board.label) === undefined ? '' : ` (${recorded.filter((b) => sameKind(board, b)).length} of ${recorded.length} of its kind)`
for (const board of boards) {
  const others = boards.filter((b) => b !== board)
  check('its own first run', record(runsOf(board, 1)), board, { unchanged: board.unchanged.slice(1), planted: board.planted })
  if (board.unchanged.length >= 2) check('its own two runs', record(runsOf(board, 2)), board, { unchanged: board.unchanged.slice(2), planted: board.planted })
  // Another board's first run, its first two, … as many as it has: a board with fewer is not counted in a row of more.
  for (const other of others) {
    for (let count = 1; count <= other.unchanged.length; count++) {
      check(`another board's ${count === 1 ? 'first run' : `first ${count} runs`}${kinds(board, [other])}`, record(runsOf(other, count)), board, everyRun(board))
    }
  }
  const twoRuns = others.filter((b) => b.unchanged.length >= 2)
  for (const [i, a] of twoRuns.entries()) {
    for (const b of twoRuns.slice(i + 1)) check(`two other boards, two runs each${kinds(board, [a, b])}`, record([...runsOf(a, 2), ...runsOf(b, 2)]), board, everyRun(board))
  }
  check('every other board', record(others.flatMap((b) => runsOf(b))), board, everyRun(board))
  check('every other board, and its own first run', record([...others.flatMap((b) => runsOf(b)), ...runsOf(board, 1)]), board, {
    unchanged: board.unchanged.slice(1),
    planted: board.planted,
  })
}

const planted = new Set(boards.flatMap((b) => b.planted.flatMap((file) => [...measurements(file, b.label).keys()]))).size
console.log(`tolerance ${options.tolerance}; ${boards.length} boards; up to ${planted} cases per planted run`)
for (const [way, { falseAlarms, caught }] of tallies) {
  const sorted = [...caught].sort((a, b) => a - b)
  const range =
    caught.length > 0 ? `${sorted[0]}–${sorted.at(-1)}, median ${sorted[Math.floor((sorted.length - 1) / 2)]} (${caught.length} planted runs)` : 'no planted run checked'
  console.log(`${way}: ${falseAlarms.length} false alarms; regressions in a planted run ${range}`)
}
const alarms = [...tallies].flatMap(([way, t]) => t.falseAlarms.map((alarm) => `${way} · ${alarm}`))
for (const alarm of alarms) console.log(`  false alarm, ${alarm}`)
