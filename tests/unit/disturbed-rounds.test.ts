// Paired rounds that something outside the case slowed (src/shared/disturbed-rounds.ts), and what the paired verdict
// (src/baseline/paired-verdict.ts) makes of them. The pattern is the one seen on an H100: identical code, one side's
// rounds at 62 µs instead of 19 µs for a stretch of blocks, the other side's as usual; and a kernel really slow at times.
import { describe, expect, it } from 'vitest'
import { pairedVerdict } from '../../src/baseline/paired-verdict.js'
import { decidedEnough } from '../../src/engine/worker/paired-case.js'
import { DISTURBED_FACTOR, disturbedReason, leaveOutDisturbed, tooDisturbed } from '../../src/shared/disturbed-rounds.js'
import { DEFAULT_COMPARE } from '../../src/spec/compare.js'
import { seededUniform } from '../helpers/time-streams.js'

/** `blocks` blocks of two rounds of a 19 µs kernel on both sides, ±1% noise; `slow(block, side)` makes a round 62 µs. */
function rounds(blocks: number, slow: (block: number, side: 'base' | 'head') => boolean = () => false) {
  const random = seededUniform(7)
  const block = Array.from({ length: 2 * blocks }, (_, i) => Math.floor(i / 2))
  const time = (b: number, side: 'base' | 'head') => (slow(b, side) ? 0.062 : 0.019) * (1 + 0.01 * (random() - 0.5))
  return { base: block.map((b) => time(b, 'base')), head: block.map((b) => time(b, 'head')), block, calls: 8, dropped: 0 }
}

const compare = { base: 'origin/main', tolerance: 0.01, confidence: 0.95, processSpread: 0.013 }
const verdictOf = (r: ReturnType<typeof rounds>) =>
  pairedVerdict({ base: { outcome: { status: 'ok', outputs: [], verificationSkipped: false } }, rounds: r }, compare)

describe('leaveOutDisturbed', () => {
  it('leaves nothing out of steady rounds, nor for a few percent between places', () => {
    const steady = rounds(20)
    steady.head = steady.head.map((ms, i) => ms * (1 + 0.05 * (steady.block[i]! % 2)))
    const split = leaveOutDisturbed(steady)
    expect(split).toMatchObject({ blocks: 20, leftOut: 0, disturbed: { base: 0, head: 0 }, worst: 1 })
    expect(split.clean.block).toEqual(steady.block)
  })

  it('leaves out every block with a round far above its side\'s usual time, on either side', () => {
    const split = leaveOutDisturbed(rounds(20, (b, side) => (b === 3 && side === 'head') || (b === 11 && side === 'base')))
    expect(split.leftOut).toBe(2)
    expect(split.disturbed).toEqual({ base: 2, head: 2 })
    expect(split.worst).toBeGreaterThan(3)
    expect(new Set(split.clean.block)).toEqual(new Set(Array.from({ length: 20 }, (_, b) => b).filter((b) => b !== 3 && b !== 11)))
    expect(tooDisturbed(split)).toBe(false)
    expect(DISTURBED_FACTOR).toBeLessThan(62 / 19)
  })
})

describe('the paired verdict on disturbed rounds', () => {
  it('judges identical code unchanged when one block of twenty was disturbed, and says it left it out', () => {
    const verdict = verdictOf(rounds(20, (b, side) => b === 5 && side === 'head'))
    expect(verdict.kind).toBe('unchanged')
    expect(verdict.message).toContain('1 disturbed block left out')
    expect(verdict.message).toContain('interval over 19 blocks')
  })

  it('judges every block when a third were disturbed: without fresh processes to ask, a head slow that often is a regression', () => {
    const disturbed = rounds(30, (b, side) => side === 'head' && b < 10)
    const verdict = verdictOf(disturbed)
    expect(verdict).toMatchObject({ kind: 'regression', fails: true })
    expect(verdict.reason).toContain(disturbedReason(leaveOutDisturbed(disturbed)))
    expect(verdict.reason).toMatch(/the head side's rounds read up to 3\.\d× their usual time in 10 of 30 blocks \(over 10%\), so every block was judged/)
    expect(verdict.message).toContain('interval over 30 blocks')
    expect(verdict.message).not.toContain('left out')
    // A third of the blocks at 62 µs instead of 19 µs: a third of ln(62/19) in the mean log ratio.
    expect(verdict.change!).toBeCloseTo(Math.exp(-Math.log(62 / 19) / 3) - 1, 1)
  })
})

/**
 * A case as the engine leaves it after a fresh pair: 20 blocks on the first pair (labels 0, 2, …), then `freshBlocks`
 * on fresh processes (labels 1, 3, …); `slow(block, side, fresh)` makes a round 62 µs instead of 19 µs.
 */
function confirmedRounds(freshBlocks: number, slow: (block: number, side: 'base' | 'head', fresh: boolean) => boolean) {
  const random = seededUniform(11)
  const labels = [...Array.from({ length: 20 }, (_, j) => 2 * j), ...Array.from({ length: freshBlocks }, (_, j) => 2 * j + 1)]
  const block = labels.flatMap((label) => [label, label])
  const time = (label: number, side: 'base' | 'head') => (slow(Math.floor(label / 2), side, label % 2 === 1) ? 0.062 : 0.019) * (1 + 0.01 * (random() - 0.5))
  return { base: block.map((b) => time(b, 'base')), head: block.map((b) => time(b, 'head')), block, calls: 8, dropped: 0, pairs: 2, freshPair: 1 }
}

describe('a disturbed case and its fresh processes', () => {
  it('does not fail identical code whose first head process was slow for a stretch: the fresh pair reads no change', () => {
    const verdict = verdictOf(confirmedRounds(20, (b, side, fresh) => side === 'head' && !fresh && b < 8))
    expect(verdict).toMatchObject({ kind: 'inconclusive', fails: false })
    // The two pairs read far apart, which the interval shows.
    expect(verdict.reason).toMatch(/^the interval is too wide to judge .*so every block was judged/)
  })

  it('fails a head that is slow in a third of its rounds on fresh processes too', () => {
    const verdict = verdictOf(confirmedRounds(30, (b, side) => side === 'head' && b % 3 === 0))
    expect(verdict).toMatchObject({ kind: 'regression', fails: true })
    expect(verdict.message).toMatch(/the fresh processes read -\d/)
  })

  it('reads a base slow at times as a change the fresh pair must confirm, not as a regression', () => {
    const verdict = verdictOf(confirmedRounds(30, (b, side) => side === 'base' && b % 3 === 0))
    expect(verdict.kind).toBe('improvement')
    expect(verdict.fails).toBe(false)
  })
})

describe("the engine's stopping rule on disturbed rounds", () => {
  it('stops on the undisturbed blocks when few were disturbed, and goes on while too many are', () => {
    expect(decidedEnough(rounds(20), DEFAULT_COMPARE)).toBe(true)
    expect(decidedEnough(rounds(20, (b, side) => b === 5 && side === 'base'), DEFAULT_COMPARE)).toBe(true)
    expect(decidedEnough(rounds(20, (b, side) => b < 6 && side === 'base'), DEFAULT_COMPARE)).toBe(false)
  })
})
