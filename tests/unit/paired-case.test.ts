// The worker's side of paired A/B cases (src/engine/worker/paired-case.ts) against stand-in hosts that speak the
// paired protocol without a GPU (tests/fixtures/stand-in-host.ts, behaviour 'paired'): two host processes, rounds in
// alternating order, the stopping rule, a side that fails; then the verdict on the rounds (src/baseline/paired-verdict.ts).
import { describe, expect, it } from 'vitest'
import { pairedVerdict } from '../../src/baseline/paired-verdict.js'
import { narrowEnough, roundCalls, runPairedCase } from '../../src/engine/worker/paired-case.js'
import type { CasePlan } from '../../src/shared/messages.js'
import { DEFAULT_COMPARE, MIN_PAIRED_ROUNDS } from '../../src/spec/compare.js'
import { plan, standInHost } from '../helpers/stand-in-host.js'

/** A case whose stand-in kernel takes `ms` (the library's name says so to the stand-in). */
function sidePlan(library: string): CasePlan {
  const p = plan('n = 1024')
  return { ...p, solution: { library: `/stand-in/${library}.so`, symbol: 'solution' } } as unknown as CasePlan
}

const compare = { base: 'origin/main (stand-in)', tolerance: DEFAULT_COMPARE.tolerance, confidence: DEFAULT_COMPARE.confidence }

describe('runPairedCase with stand-in hosts', () => {
  it('times identical sides to an unchanged verdict, in whole pairs of rounds, stopping once the interval is narrow', async () => {
    const run = await runPairedCase(standInHost('paired'), standInHost('paired'), sidePlan('1.00'), sidePlan('1.00'), DEFAULT_COMPARE)
    expect(run.head.status).toBe('ok')
    expect(run.base.status).toBe('ok')
    const rounds = run.rounds!
    expect(rounds.base.length).toBeGreaterThanOrEqual(MIN_PAIRED_ROUNDS)
    expect(rounds.base.length % 2).toBe(0)
    expect(rounds.calls).toBe(100) // 5 ms rounds of 0.05 ms per call
    // The drift of ±5% moves both sides alike: the ratios cancel it.
    expect(Math.max(...rounds.base) / Math.min(...rounds.base)).toBeGreaterThan(1.01)
    expect(narrowEnough(rounds, DEFAULT_COMPARE)).toBe(true)
    if (run.head.status !== 'ok') throw new Error('unreachable')
    expect(run.head.timing!.stopReason).toBe('paired-interval')
    expect(run.head.timing!.samplesMs.length).toBe(1 + rounds.calls * (rounds.base.length + rounds.dropped))
    const verdict = pairedVerdict({ base: { outcome: run.base }, rounds }, compare)
    expect(verdict.kind).toBe('unchanged')
    expect(verdict.fails).toBe(false)
    expect(verdict.message).toMatch(/^unchanged against origin\/main \(stand-in\): [+-]0\.\d+% \[/)
  })

  it('catches a side 6% slower as a regression that fails', async () => {
    const run = await runPairedCase(standInHost('paired'), standInHost('paired'), sidePlan('1.06'), sidePlan('1.00'), DEFAULT_COMPARE)
    const verdict = pairedVerdict({ base: { outcome: run.base }, rounds: run.rounds! }, compare)
    expect(verdict.kind).toBe('regression')
    expect(verdict.fails).toBe(true)
    expect(verdict.change!).toBeCloseTo(1 / 1.06 - 1, 2)
    expect(verdict.interval!.high).toBeLessThan(-compare.tolerance)
  })

  it('ends at the time limit with the reason when the interval stays wide', async () => {
    const settings = { ...DEFAULT_COMPARE, tolerance: 0.0001, maxTimeMs: 300 }
    const run = await runPairedCase(standInHost('paired'), standInHost('paired'), sidePlan('1.00'), sidePlan('1.00'), settings)
    if (run.head.status !== 'ok') throw new Error(`head: ${JSON.stringify(run.head)}`)
    expect(run.head.timing!.stopReason).toBe('paired-limit')
  })

  it('reports a base that answers wrongly, runs no round, and gives an inconclusive verdict that names it', async () => {
    const run = await runPairedCase(standInHost('paired'), standInHost('paired'), sidePlan('1.00'), sidePlan('wrong-1.00'), DEFAULT_COMPARE)
    expect(run.base).toMatchObject({ status: 'wrong' })
    expect(run.head).toMatchObject({ status: 'error', errorName: 'NotRun', message: 'the base side of the paired case did not open' })
    expect(run.rounds).toBeUndefined()
    const verdict = pairedVerdict({ base: { outcome: run.base } }, compare)
    expect(verdict).toMatchObject({ kind: 'inconclusive', fails: false })
    expect(verdict.message).toContain('the base solution gave a wrong answer: stand-in: element 0 is 1 off')
  })

  it('ends the other side when one answers wrongly mid-rounds, keeping that side’s outcome', async () => {
    const run = await runPairedCase(standInHost('paired'), standInHost('paired'), sidePlan('wrong-round-1.00'), sidePlan('1.00'), DEFAULT_COMPARE)
    expect(run.head).toMatchObject({ status: 'wrong' })
    expect(run.base.status).toBe('ok')
    expect(run.rounds).toBeUndefined()
  })
})

describe('roundCalls', () => {
  it('sizes a round to about roundMs of calls, within 1 and 256', () => {
    expect(roundCalls(0.05, 5)).toBe(100)
    expect(roundCalls(20, 5)).toBe(1)
    expect(roundCalls(0.001, 5)).toBe(256)
    expect(roundCalls(0, 5)).toBe(1)
  })
})
