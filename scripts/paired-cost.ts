// Where a paired A/B run's GPU time went (docs/ci-gate.md, "Paired A/B"), from the results files real runs wrote: for
// kernels of each size, the cases, their blocks, their claim on the GPU, and per block the rounds (`timing`), the moves
// between places (`moves`, in files written since the phase exists) and what lies between (`other`: requests and
// messages; before `moves` existed, the moves and openings too). With a plain run of the same suite, its claims beside.
// And what a block's change is made of, medians over the cases: the spread of one round's log ratio within a block
// (what more or longer rounds narrow) and the spread of the blocks' places beyond it (what only more blocks narrow).
// Last, the cases' claims phase by phase over the whole run, beside the plain run's of the same cases.
//   npx tsx scripts/paired-cost.ts <paired.json> [--plain <plain.json>]
import type { CaseResult } from '../src/shared/results.js'
import { CASE_PHASES, sumPhases, type PhaseTimes } from '../src/shared/phases.js'
import { summarize } from '../src/shared/stats.js'
import { argList } from './arguments.js'
import { casesByName } from './results-file.js'

/** Kernels this long or longer (µs): the ones a 2% regression must be caught on (issue 34's bar). */
export const LONG_US = 20

/** Kernel sizes by the base side's median round, µs: [from, to). */
export const BANDS: readonly (readonly [number, number])[] = [
  [0, 20],
  [20, 50],
  [50, 200],
  [200, 2000],
  [2000, Infinity],
]

interface BandCost {
  cases: number
  /** Each case's spread of one round's log ratio within a block, and of its blocks' places beyond that (sd). */
  roundSd: number[]
  placeSd: number[]
  blocks: number
  claimedMs: number
  plainMs: number
  timingMs: number
  movesMs: number
  otherMs: number
}

const claimedMs = (c: CaseResult) => (c.claimed ? c.claimed.toMs - c.claimed.fromMs : 0)

/**
 * A case's noise parts, from its blocks of two rounds: a round's variance is half the squared difference of a block's
 * two round log ratios; the blocks' means vary (within each pair of processes) by the place's variance plus half a
 * round's. Undefined under 6 such blocks.
 */
export function noiseParts(rounds: NonNullable<NonNullable<CaseResult['paired']>['rounds']>): { roundSd: number; placeSd: number } | undefined {
  const byBlock = new Map<number, number[]>()
  rounds.block.forEach((block, i) => byBlock.set(block, [...(byBlock.get(block) ?? []), Math.log(rounds.head[i]! / rounds.base[i]!)]))
  const twos = [...byBlock].filter(([, ratios]) => ratios.length === 2) as [number, [number, number]][]
  if (twos.length < 6) return undefined
  const roundVariance = twos.reduce((sum, [, [a, b]]) => sum + (a - b) ** 2 / 2, 0) / twos.length
  const pairs = rounds.pairs ?? 1
  let squares = 0
  let df = 0
  for (let pair = 0; pair < pairs; pair++) {
    const means = twos.filter(([block]) => block % pairs === pair).map(([, [a, b]]) => (a + b) / 2)
    if (means.length < 2) continue
    const mean = means.reduce((sum, x) => sum + x, 0) / means.length
    squares += means.reduce((sum, x) => sum + (x - mean) ** 2, 0)
    df += means.length - 1
  }
  if (df === 0) return undefined
  return { roundSd: Math.sqrt(roundVariance), placeSd: Math.sqrt(Math.max(0, squares / df - roundVariance / 2)) }
}

/** The cost of each band of `paired`'s cases, with the claims of the same cases in `plain` where given. */
export function pairedCost(paired: Map<string, CaseResult>, plain?: Map<string, CaseResult>): BandCost[] {
  const bands = BANDS.map((): BandCost => ({ cases: 0, roundSd: [], placeSd: [], blocks: 0, claimedMs: 0, plainMs: 0, timingMs: 0, movesMs: 0, otherMs: 0 }))
  for (const [key, c] of paired) {
    const rounds = c.paired?.rounds
    if (!rounds) continue
    const us = summarize(rounds.base).median * 1000
    const band = bands[BANDS.findIndex(([from, to]) => us >= from && us < to)]!
    band.cases++
    const noise = noiseParts(rounds)
    if (noise) {
      band.roundSd.push(noise.roundSd)
      band.placeSd.push(noise.placeSd)
    }
    band.blocks += new Set(rounds.block).size
    band.claimedMs += claimedMs(c)
    band.plainMs += plain?.get(key) ? claimedMs(plain.get(key)!) : 0
    band.timingMs += c.phases?.timing ?? 0
    band.movesMs += c.phases?.moves ?? 0
    band.otherMs += c.phases?.other ?? 0
  }
  return bands
}

/** The phases that make up a case's claim on the GPU (compiles and waits for the GPU come before it). */
const CLAIMED_PHASES = CASE_PHASES.filter((phase) => phase !== 'compile' && phase !== 'gpuWait')

/**
 * Where the claims of `paired`'s cases went, phase by phase, beside the same cases' phases in `plain` where given:
 * [phase, paired ms, plain ms], the largest first.
 */
export function phaseTable(paired: Map<string, CaseResult>, plain?: Map<string, CaseResult>): [string, number, number | undefined][] {
  const pairedCases = [...paired].filter(([, c]) => c.paired?.rounds)
  const sum = (cases: (CaseResult | undefined)[]): PhaseTimes => sumPhases(cases.map((c) => c?.phases))
  const ours = sum(pairedCases.map(([, c]) => c))
  const theirs = plain && sum(pairedCases.map(([key]) => plain.get(key)))
  return CLAIMED_PHASES.filter((phase) => (ours[phase] ?? 0) > 0)
    .map((phase): [string, number, number | undefined] => [phase, ours[phase]!, theirs ? (theirs[phase] ?? 0) : undefined])
    .sort((a, b) => b[1] - a[1])
}

function main(): void {
  const file = process.argv[2]
  if (!file || file.startsWith('--')) {
    console.error('usage: npx tsx scripts/paired-cost.ts <paired.json> [--plain <plain.json>]')
    process.exit(2)
  }
  const plainFile = argList('--plain')[0]
  const paired = casesByName<CaseResult>(file)
  const plain = plainFile ? casesByName<CaseResult>(plainFile) : undefined
  const bands = pairedCost(paired, plain)
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`
  const perBlock = (ms: number, band: BandCost) => `${(ms / band.blocks).toFixed(1)} ms`
  const pct = (sds: number[]) => (sds.length > 0 ? `${(100 * summarize(sds).median).toFixed(2)}%` : '-')
  console.log('kernel | cases | blocks a case | claims | plain claims | per block: rounds, moves, other | sd: round, place')
  BANDS.forEach(([from, to], i) => {
    const band = bands[i]!
    if (band.cases === 0) return
    const plainClaims = plain ? `${s(band.plainMs)} (×${(band.claimedMs / band.plainMs).toFixed(1)})` : '-'
    const range = to === Infinity ? `${from} µs or more` : `${from}–${to} µs`
    console.log(
      `${range} | ${band.cases} | ${(band.blocks / band.cases).toFixed(0)} | ${s(band.claimedMs)} | ${plainClaims} | ` +
        `${perBlock(band.timingMs, band)}, ${perBlock(band.movesMs, band)}, ${perBlock(band.otherMs, band)} | ` +
        `${pct(band.roundSd)}, ${pct(band.placeSd)}`,
    )
  })
  const total = (pick: (band: BandCost) => number) => bands.reduce((sum, band) => sum + pick(band), 0)
  const plainTotal = plain ? ` against ${s(total((b) => b.plainMs))} plain (×${(total((b) => b.claimedMs) / total((b) => b.plainMs)).toFixed(1)})` : ''
  console.log(`all: ${total((b) => b.cases)} cases, ${total((b) => b.blocks)} blocks, claims ${s(total((b) => b.claimedMs))}${plainTotal}`)
  const phases = phaseTable(paired, plain)
  console.log(`phases${plain ? ' (paired / plain)' : ''}: ${phases.map(([phase, ms, plainMs]) => `${phase} ${s(ms)}${plainMs === undefined ? '' : ` / ${s(plainMs)}`}`).join(', ')}`)
}

if (import.meta.url === `file://${process.argv[1]}`) main()
