// scripts/paired-cost.ts: a paired run's cost per kernel size, from the phases and blocks its results file keeps.
import { describe, expect, it } from 'vitest'
import { noiseParts, pairedCost, phaseTable } from '../../scripts/paired-cost.js'
import type { CaseResult } from '../../src/shared/results.js'

/** A paired case of a kernel of `us` µs over `blocks` blocks of two rounds, claiming the GPU `claimedMs`. */
function pairedCase(us: number, blocks: number, claimedMs: number, phases: CaseResult['phases']): CaseResult {
  const block = Array.from({ length: 2 * blocks }, (_, i) => Math.floor(i / 2))
  const base = block.map(() => us / 1000)
  return { claimed: { fromMs: 1000, toMs: 1000 + claimedMs }, phases, paired: { rounds: { base, head: base, block, calls: 1, dropped: 0, pairs: 2 } } } as unknown as CaseResult
}

describe('pairedCost', () => {
  it('sums cases, blocks, claims and phases per kernel size, with the plain run\'s claims of the same cases', () => {
    const paired = new Map([
      ['a · small', pairedCase(30, 20, 900, { timing: 300, moves: 200, other: 100 })],
      ['a · small too', pairedCase(40, 10, 600, { timing: 200, other: 50 })],
      ['b · long', pairedCase(5000, 8, 4000, { timing: 2000, moves: 1000, other: 300 })],
      ['c · failed', { phases: { timing: 5 } } as unknown as CaseResult],
    ])
    const plain = new Map([['a · small', { claimed: { fromMs: 0, toMs: 150 } } as unknown as CaseResult]])
    const bands = pairedCost(paired, plain)
    expect(bands[1]).toMatchObject({ cases: 2, blocks: 30, claimedMs: 1500, plainMs: 150, timingMs: 500, movesMs: 200, otherMs: 150 })
    expect(bands[4]).toMatchObject({ cases: 1, blocks: 8, claimedMs: 4000, plainMs: 0, timingMs: 2000, movesMs: 1000, otherMs: 300 })
    // Identical rounds: no noise in either part.
    expect(bands[1]!.roundSd).toEqual([0, 0])
    expect(bands[1]!.placeSd).toEqual([0, 0])
    expect(bands.reduce((sum, band) => sum + band.cases, 0)).toBe(3)
  })
})

describe('phaseTable', () => {
  it('sums the claimed phases of the paired cases, the largest first, beside the plain run\'s of the same cases', () => {
    const paired = new Map([
      ['a · small', pairedCase(30, 20, 900, { compile: 5000, gpuWait: 7000, hostStart: 100, timing: 300, moves: 200 })],
      ['b · long', pairedCase(5000, 8, 4000, { timing: 2000, moves: 1000, verify: 400 })],
      ['c · failed', { phases: { timing: 5 } } as unknown as CaseResult],
    ])
    const plain = new Map([
      ['a · small', { phases: { timing: 80, hostStart: 30 } } as unknown as CaseResult],
      ['c · failed', { phases: { timing: 70 } } as unknown as CaseResult],
    ])
    // Compiles and waits for the GPU are no part of a claim; the failed case has no rounds and counts on neither side.
    expect(phaseTable(paired, plain)).toEqual([
      ['timing', 2300, 80],
      ['moves', 1200, 0],
      ['verify', 400, 0],
      ['hostStart', 100, 30],
    ])
    expect(phaseTable(paired)[0]).toEqual(['timing', 2300, undefined])
  })
})

describe('noiseParts', () => {
  it('tells the round noise within a block from the places\' spread beyond it', () => {
    // 12 blocks on one pair: the places alternate ±1% (log), and within each block the two rounds read ±0.5% about it.
    const block = Array.from({ length: 24 }, (_, i) => Math.floor(i / 2))
    const logRatio = block.map((b, i) => (b % 2 === 0 ? 0.01 : -0.01) + (i % 2 === 0 ? 0.005 : -0.005))
    const rounds = { base: block.map(() => 1), head: logRatio.map(Math.exp), block, calls: 1, dropped: 0, pairs: 1 }
    const parts = noiseParts(rounds)!
    // A round's variance: (0.01)² / 2; the block means ±0.01 over 11 degrees of freedom, less half a round's variance.
    expect(parts.roundSd).toBeCloseTo(Math.sqrt(0.0001 / 2), 12)
    expect(parts.placeSd).toBeCloseTo(Math.sqrt((12 * 0.0001) / 11 - 0.0001 / 4), 12)
    expect(noiseParts({ ...rounds, base: rounds.base.slice(0, 10), head: rounds.head.slice(0, 10), block: block.slice(0, 10) })).toBeUndefined()
  })
})
