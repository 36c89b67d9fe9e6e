// The worker's side of paired A/B cases (src/engine/worker/paired-case.ts) against stand-in hosts that speak the
// paired protocol without a GPU (tests/fixtures/stand-in-host.ts, behaviour 'paired'): two host processes, rounds in
// alternating order, the stopping rule, a side that fails; then the verdict on the rounds (src/baseline/paired-verdict.ts).
import { describe, expect, it } from 'vitest'
import { pairedVerdict } from '../../src/baseline/paired-verdict.js'
import type { DeviceHost } from '../../src/engine/worker/client.js'
import { blockOrder, blocksState, confirmingBlocks, decidedEnough, freshPairDone, roundCalls, roundsPerSide, runPairedCase, sideBySide, underOneLock, type HostPair, type PairedRounds } from '../../src/engine/worker/paired-case.js'
import type { CasePlan, PairPlace } from '../../src/shared/messages.js'
import { placedLayout, SPACER_RANGE_BYTES } from '../../src/shared/places.js'
import { compareBlocks, judgeChange, MIN_INTERVAL_BLOCKS, onePairChange, PROCESS_SPREAD_WEIGHT, processSpreadAt } from '../../src/shared/median-change.js'
import { judgePairedRounds, lowerLevelChange, roundsOfPair } from '../../src/shared/paired-estimate.js'
import { DEFAULT_COMPARE, MIN_PAIRED_BLOCKS } from '../../src/spec/compare.js'
import { plan, standInHost } from '../helpers/stand-in-host.js'

/**
 * A case whose stand-in kernel takes `ms` (the library's name says so to the stand-in), with two inputs of 2^20 floats
 * and one output of 3 MiB of floats.
 */
function sidePlan(library: string): CasePlan {
  const p = plan('n = 1024')
  const args = [
    { kind: 'input', name: 'a', dtype: 'float32', count: 2 ** 20 },
    { kind: 'input', name: 'b', dtype: 'float32', count: 2 ** 20 },
    { kind: 'output', name: 'c', dtype: 'float32', count: 3 * 2 ** 18 },
    { kind: 'scalar', name: 'n', value: 2 ** 20 },
  ]
  return { ...p, args, solution: { library: `/stand-in/${library}.so`, symbol: 'solution' } } as unknown as CasePlan
}

/**
 * Spacer sizes from a fixed seed (xorshift32, whole 2 MiB pages below 128 MiB): the stand-in's placement effect follows
 * the spacer, and the product's random draws would make these verdicts a matter of chance.
 */
function seededSpacers(seed: number): () => number {
  let state = seed
  return () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    state >>>= 0
    return (state % 64) * 2 * 2 ** 20
  }
}

/** `count` pairs of stand-in hosts, a process each. */
function standInPairs(count: number) {
  return [...Array(count)].map(() => ({ head: standInHost('paired'), base: standInHost('paired') }))
}

const compare = { base: 'origin/main (stand-in)', tolerance: DEFAULT_COMPARE.tolerance, confidence: DEFAULT_COMPARE.confidence }
/** Rounds stop on the interval alone: a loaded machine must not reach the time limit first. */
const untimed = { ...DEFAULT_COMPARE, maxTimeMs: 600_000 }

describe('runPairedCase with stand-in hosts', () => {
  it('times identical sides to an unchanged verdict, in blocks of two rounds at new places, stopping once the interval is narrow', async () => {
    // A 20 µs kernel: under 50 µs a block runs two rounds a side.
    const run = await runPairedCase(standInPairs(1), sidePlan('0.02'), sidePlan('0.02'), untimed, { drawSpacer: seededSpacers(42) })
    expect(run.head.status).toBe('ok')
    expect(run.base.status).toBe('ok')
    const rounds = run.rounds!
    const blocks = new Set(rounds.block).size
    expect(blocks).toBeGreaterThanOrEqual(MIN_PAIRED_BLOCKS)
    expect(rounds.perSide).toBe(2)
    expect(rounds.base.length).toBe(2 * blocks)
    expect(rounds.calls).toBe(100) // 5 ms rounds of 0.05 ms per call
    // The drift of ±5% moves both sides alike: the ratios cancel it.
    expect(Math.max(...rounds.base) / Math.min(...rounds.base)).toBeGreaterThan(1.01)
    expect(decidedEnough(rounds, untimed)).toBe(true)
    if (run.head.status !== 'ok') throw new Error('unreachable')
    expect(run.head.timing!.stopReason).toBe('paired-interval')
    expect(run.head.timing!.samplesMs.length).toBe(1 + rounds.calls * (rounds.base.length + rounds.dropped))
    const verdict = pairedVerdict({ base: { outcome: run.base }, rounds }, compare)
    expect(verdict.kind).toBe('unchanged')
    expect(verdict.fails).toBe(false)
    expect(verdict.message).toMatch(/^unchanged against origin\/main \(stand-in\): [+-]\d\.\d+% \[/)
    expect(verdict.interval!.low).toBeLessThan(0)
    expect(verdict.interval!.high).toBeGreaterThan(0)
    // Read as if each side had kept one place, the rounds of the first block alone are a change far beyond their own
    // interval: the placement effect the blocks turn into noise.
    const first = rounds.block.map((b, i) => (b === 0 ? i : -1)).filter((i) => i >= 0)
    expect(rounds.base[first[0]!]! / rounds.head[first[0]!]!).not.toBeCloseTo(1, 3)
  })

  /** A case of a `kernelMs` kernel on one pair of stand-in hosts, with each pairRounds request logged. */
  async function loggedRequests(kernelMs: string) {
    const [pair] = standInPairs(1) as [HostPair]
    const log: string[] = []
    const logged = (host: DeviceHost, name: string) => {
      // The wrapper keeps the host's state as its own (its every request goes through it): only pairRounds is logged.
      const wrapped = Object.create(host) as DeviceHost
      const pairRounds = host.pairRounds
      wrapped.pairRounds = function (step, plan) {
        log.push(`${name} ${step.place === undefined ? '' : 'move '}${step.rounds}`)
        return pairRounds.call(this, step, plan)
      }
      return wrapped
    }
    const run = await runPairedCase([{ base: logged(pair.base, 'base'), head: logged(pair.head, 'head') }], sidePlan(kernelMs), sidePlan(kernelMs), untimed, { drawSpacer: seededSpacers(42) })
    return { log, blocks: new Set(run.rounds!.block).size, perSide: run.rounds!.perSide }
  }

  it('runs a block of a kernel under 50 µs as three requests: the first side moves and runs a round, the second moves and runs two, the first one more', async () => {
    const { log, blocks, perSide } = await loggedRequests('0.02')
    expect(perSide).toBe(2)
    // The sizing round, block 0 at the places the sides opened at, block 1 at new places with the head first.
    expect(log.slice(0, 8)).toEqual(['base 1', 'head 1', 'base 1', 'head 2', 'base 1', 'head move 1', 'base move 2', 'head 1'])
    expect(log.length).toBe(2 + 3 * blocks)
  })

  it('runs a block of a kernel of 50 µs or more as two requests: each side moves and runs one round', async () => {
    const { log, blocks, perSide } = await loggedRequests('0.06')
    expect(perSide).toBe(1)
    expect(log.slice(0, 8)).toEqual(['base 1', 'head 1', 'base 1', 'head 1', 'head move 1', 'base move 1', 'base move 1', 'head move 1'])
    expect(log.length).toBe(2 + 2 * blocks)
  })

  it('catches a side 6% slower as a regression that fails, once fresh processes read it too', async () => {
    const run = await runPairedCase(standInPairs(1), sidePlan('1.06'), sidePlan('1.00'), untimed, { drawSpacer: seededSpacers(42) })
    const rounds = run.rounds!
    // The one pair's blocks read the change, so a fresh pair (numbered as the second) ran an interval's worth of blocks,
    // which confirmed it: it stopped there, short of the blocks the first pair ran.
    expect(rounds).toMatchObject({ pairs: 2, freshPair: 1 })
    const freshBlocks = new Set(rounds.block.filter((b) => b % 2 === 1)).size
    expect(freshBlocks).toBe(MIN_INTERVAL_BLOCKS)
    expect(confirmingBlocks(rounds.block.filter((b) => b % 2 === 0).map((b) => b / 2), 1).count).toBeGreaterThan(MIN_INTERVAL_BLOCKS)
    const verdict = pairedVerdict({ base: { outcome: run.base }, rounds }, compare)
    expect(verdict.kind).toBe('regression')
    expect(verdict.fails).toBe(true)
    expect(verdict.change!).toBeCloseTo(1 / 1.06 - 1, 2)
    expect(verdict.interval!.high).toBeLessThan(-compare.tolerance)
    expect(verdict.message).toMatch(/2 pairs of processes \(one opened fresh to confirm the change\).*the fresh processes read -\d+\.\d+% \[/)
  })

  it('does not fail identical code whose head processes both read 4% slower for their whole life: fresh processes do not repeat it', async () => {
    // 'stepped-': a process started as the host reads 4% slower; the fresh ones (the hosts' spares) do not.
    const run = await runPairedCase(standInPairs(2), sidePlan('stepped-1.00'), sidePlan('1.00'), untimed, { drawSpacer: seededSpacers(7) })
    const rounds = run.rounds!
    expect(rounds).toMatchObject({ pairs: 3, freshPair: 2 })
    // Unconfirmed, the fresh pair ran as many blocks as each pair before it.
    const onPair = (pair: number) => new Set(rounds.block.filter((b) => b % 3 === pair)).size
    expect(onPair(2)).toBe(Math.max(MIN_INTERVAL_BLOCKS, Math.ceil((onPair(0) + onPair(1)) / 2)))
    // Without the fresh pair's blocks, the two pairs read a regression far beyond their interval.
    const before = rounds.block.flatMap((b, i) => (b % 3 === 2 ? [] : [i]))
    const pick = (xs: number[]) => before.map((i) => xs[i]!)
    const unconfirmed = { ...rounds, base: pick(rounds.base), head: pick(rounds.head), block: pick(rounds.block), freshPair: undefined }
    expect(pairedVerdict({ base: { outcome: run.base }, rounds: unconfirmed }, compare).kind).toBe('regression')
    // With the fresh pair, the three pairs read too far apart to judge (how a verdict that the fresh pair alone
    // overturns reads: 'the fresh processes' below).
    expect(pairedVerdict({ base: { outcome: run.base }, rounds }, compare)).toMatchObject({ kind: 'inconclusive', fails: false })
  })

  it('ends at the time limit with the reason when the interval stays wide', async () => {
    const settings = { ...DEFAULT_COMPARE, tolerance: 0.0001, maxTimeMs: 300 }
    const run = await runPairedCase(standInPairs(1), sidePlan('1.00'), sidePlan('1.00'), settings, { drawSpacer: seededSpacers(42) })
    if (run.head.status !== 'ok') throw new Error(`head: ${JSON.stringify(run.head)}`)
    expect(run.head.timing!.stopReason).toBe('paired-limit')
  })

  it('runs past the time limit until the blocks can give an interval (a long kernel fitted two blocks into it)', async () => {
    const settings = { ...DEFAULT_COMPARE, tolerance: 0.0001, maxTimeMs: 1 }
    const run = await runPairedCase(standInPairs(1), sidePlan('1.00'), sidePlan('1.00'), settings, { drawSpacer: seededSpacers(42) })
    if (run.head.status !== 'ok') throw new Error(`head: ${JSON.stringify(run.head)}`)
    expect(run.head.timing!.stopReason).toBe('paired-limit')
    expect(new Set(run.rounds!.block).size).toBe(MIN_INTERVAL_BLOCKS)
    expect(compareBlocks(run.rounds!.base, run.rounds!.head, run.rounds!.block, 0.95).interval).toBeDefined()
  })

  it('reports a base that answers wrongly, runs no round, and gives an inconclusive verdict that names it', async () => {
    const run = await runPairedCase(standInPairs(1), sidePlan('1.00'), sidePlan('wrong-1.00'), untimed, { drawSpacer: seededSpacers(42) })
    expect(run.base).toMatchObject({ status: 'wrong' })
    expect(run.head).toMatchObject({ status: 'error', errorName: 'NotRun', message: expect.stringMatching(/^the base side of the paired case did not open \(a wrong answer: /) })
    expect(run.rounds).toBeUndefined()
    const verdict = pairedVerdict({ base: { outcome: run.base } }, compare)
    expect(verdict).toMatchObject({ kind: 'inconclusive', fails: false })
    expect(verdict.message).toContain('the base solution gave a wrong answer: stand-in: element 0 is 1 off')
  })

  it('rotates the blocks over two pairs of processes and gives each side the samples of both of its hosts', async () => {
    /** Whether each host, named by pair and side, was asked to run the verified call of step 4 (12) when its side opened (ended). */
    const verifiedAtOpening: Record<string, boolean> = {}
    const verifiedAtEnd: Record<string, boolean> = {}
    const pairs = standInPairs(2).map((pair, index) => {
      const askedToVerify = (host: DeviceHost, name: string) => {
        const wrapped = Object.create(host) as DeviceHost
        const { pairStart, pairEnd } = host
        wrapped.pairStart = function (plan, spacerBytes, verify) {
          verifiedAtOpening[`${name} ${index}`] = verify
          return pairStart.call(this, plan, spacerBytes, verify)
        }
        wrapped.pairEnd = function (stopReason, plan, verify) {
          verifiedAtEnd[`${name} ${index}`] = verify
          return pairEnd.call(this, stopReason, plan, verify)
        }
        return wrapped
      }
      return { base: askedToVerify(pair.base, 'base'), head: askedToVerify(pair.head, 'head') }
    })
    const run = await runPairedCase(pairs, sidePlan('1.00'), sidePlan('1.00'), untimed, { drawSpacer: seededSpacers(7) })
    // The second pair's processes load the same libraries: their priming call's check stands for the verified call.
    expect(verifiedAtOpening).toEqual({ 'base 0': true, 'head 0': true, 'base 1': false, 'head 1': false })
    // Their calls were checked at random during the rounds: only the first pair verifies again after timing.
    expect(verifiedAtEnd).toEqual({ 'base 0': true, 'head 0': true, 'base 1': false, 'head 1': false })
    if (run.head.status !== 'ok' || run.base.status !== 'ok') throw new Error(`sides: ${JSON.stringify([run.head, run.base])}`)
    const rounds = run.rounds!
    expect(rounds.pairs).toBe(2)
    const blocks = [...new Set(rounds.block)]
    expect(blocks.length).toBeGreaterThanOrEqual(MIN_PAIRED_BLOCKS)
    // Both hosts' rounds, and the sizing round's call, which ran on the first pair.
    const roundsOn = (pair: number) => rounds.block.filter((b) => b % 2 === pair).length
    expect(run.head.timing!.samplesMs.length).toBe(1 + rounds.calls * (roundsOn(0) + roundsOn(1)))
    expect(roundsOn(0)).toBeGreaterThan(0)
    expect(roundsOn(1)).toBeGreaterThan(0)
    expect(pairedVerdict({ base: { outcome: run.base }, rounds }, compare).message).toMatch(/2 pairs of processes/)
  })

  it('places both sides of a pair at the same offset of a region of its own in every block, and frees each region once its sides ended', async () => {
    const places: Array<{ pair: number; side: string; place: PairPlace }> = []
    const regions: Array<{ handle: string; bytes: number; freedAfter?: number }> = []
    const ended: string[] = []
    const pairs = (standInPairs(2) as HostPair[]).map((pair, index) => {
      const logged = (host: DeviceHost, side: string) => {
        const wrapped = Object.create(host) as DeviceHost
        const { pairStart, pairRounds, pairEnd } = host
        wrapped.pairStart = function (plan, place, verify) {
          places.push({ pair: index, side, place })
          return pairStart.call(this, plan, place, verify)
        }
        wrapped.pairRounds = function (step, plan) {
          if (step.place) places.push({ pair: index, side, place: step.place })
          return pairRounds.call(this, step, plan)
        }
        wrapped.pairEnd = function (stopReason, plan, verify) {
          ended.push(`${side} ${index}`)
          return pairEnd.call(this, stopReason, plan, verify)
        }
        return wrapped
      }
      return { base: logged(pair.base, 'base'), head: logged(pair.head, 'head') }
    })
    const regionSource = async (bytes: number) => {
      const region: { handle: string; bytes: number; freedAfter?: number } = { handle: `region-${regions.length}`, bytes }
      regions.push(region)
      return { handle: region.handle, free: async () => void (region.freedAfter = ended.length) }
    }
    const run = await runPairedCase(pairs, sidePlan('1.00'), sidePlan('1.00'), untimed, { drawSpacer: seededSpacers(7), regions: regionSource })
    expect(run.head.status).toBe('ok')
    expect(run.rounds!.sharedPlaces).toBe(true)
    expect(run.rounds!.unsharedReason).toBeUndefined()
    // One region a pair, holding the case's inputs and output (each at a 2 MiB page) and the range of offsets.
    expect(regions.map((r) => r.handle)).toEqual(['region-0', 'region-1'])
    expect(placedLayout(sidePlan('1.00'))).toEqual({ offsets: new Map([[0, 0], [1, 4 * 2 ** 20], [2, 8 * 2 ** 20]]), bytes: 3 * 4 * 2 ** 20 })
    expect(regions[0]!.bytes).toBe(placedLayout(sidePlan('1.00')).bytes + SPACER_RANGE_BYTES)
    // Each place the base is sent to, the head is sent to as well (its next step on that pair), in its pair's region.
    for (const pair of [0, 1]) {
      const onPair = places.filter((p) => p.pair === pair)
      expect(onPair.length).toBeGreaterThan(4)
      for (let i = 0; i < onPair.length; i += 2) {
        expect(onPair[i]!.place).toEqual(onPair[i + 1]!.place)
        expect(onPair[i]!.side).not.toBe(onPair[i + 1]!.side)
        expect(onPair[i]!.place).toMatchObject({ region: `region-${pair}` })
      }
      expect(new Set(onPair.map((p) => ('offsetBytes' in p.place ? p.place.offsetBytes : -1))).size).toBeGreaterThan(1)
    }
    // Freed only once every side had ended: a side never times in memory that is gone.
    expect(ended).toHaveLength(4)
    expect(regions.map((r) => r.freedAfter)).toEqual([4, 4])
  })

  it('places each side behind a spacer of its own where no region can be had, and keeps why', async () => {
    const places: PairPlace[] = []
    const [pair] = standInPairs(1) as [HostPair]
    const wrapped = Object.create(pair.head) as DeviceHost
    const pairRounds = pair.head.pairRounds
    wrapped.pairRounds = function (step, plan) {
      if (step.place) places.push(step.place)
      return pairRounds.call(this, step, plan)
    }
    const run = await runPairedCase([{ base: pair.base, head: wrapped }], sidePlan('1.00'), sidePlan('1.00'), untimed, { drawSpacer: seededSpacers(7), regions: async () => ({ unavailable: 'stand-in: no IPC here' }) })
    expect(run.head.status).toBe('ok')
    expect(places.length).toBeGreaterThan(0)
    for (const place of places) expect(place).toHaveProperty('spacerBytes')
    expect(run.rounds).toMatchObject({ sharedPlaces: false, unsharedReason: 'stand-in: no IPC here' })
  })

  it('leaves out a later pair that finds no memory for the case, and times on the first', async () => {
    const [first, second] = standInPairs(2) as [HostPair, HostPair]
    const short = Object.create(second.base) as DeviceHost
    short.pairStart = async () => ({ outcome: { status: 'error', errorName: 'OutOfMemory', message: 'stand-in: no memory left' }, phases: {} })
    const run = await runPairedCase([first, { head: second.head, base: short }], sidePlan('1.00'), sidePlan('1.00'), untimed, { drawSpacer: seededSpacers(7) })
    expect(run.head.status).toBe('ok')
    expect(run.base.status).toBe('ok')
    expect(run.rounds!.pairs).toBe(1)
    expect(new Set(run.rounds!.block).size).toBeGreaterThanOrEqual(MIN_PAIRED_BLOCKS)
  })

  it('fails the case when the base answers wrongly mid-rounds, after the current side opened beside it', async () => {
    const run = await runPairedCase(standInPairs(1), sidePlan('1.00'), sidePlan('wrong-round-1.00'), untimed, { drawSpacer: seededSpacers(42) })
    expect(run.base).toMatchObject({ status: 'wrong' })
    expect(run.head).toMatchObject({ status: 'error', errorName: 'PairedBaseFailed', message: expect.stringMatching(/^the base solution failed after this solution had opened the case beside it \(a wrong answer: /) })
    expect(run.rounds).toBeUndefined()
  })

  it('fails the case when the base answers its last verified call wrongly', async () => {
    const run = await runPairedCase(standInPairs(2), sidePlan('1.00'), sidePlan('wrong-end-1.00'), untimed, { drawSpacer: seededSpacers(42) })
    expect(run.base).toMatchObject({ status: 'wrong', message: 'stand-in: element 0 is 1 off after timing' })
    expect(run.head).toMatchObject({ status: 'error', errorName: 'PairedBaseFailed' })
  })

  it('ends the other side when one answers wrongly mid-rounds, keeping that side’s outcome', async () => {
    const run = await runPairedCase(standInPairs(1), sidePlan('wrong-round-1.00'), sidePlan('1.00'), untimed, { drawSpacer: seededSpacers(42) })
    expect(run.head).toMatchObject({ status: 'wrong' })
    expect(run.base.status).toBe('ok')
    expect(run.rounds).toBeUndefined()
  })
})

describe('decidedEnough, the stopping rule', () => {
  // 16 blocks of one round of a 400 µs kernel (process spread 0.065%) on one pair; the head `change` slower, each
  // block off by ±`noise` alternately: the blocks' half-width is t(0.975, 15) · noise / 4 = 0.533 · noise.
  const rounds = (change: number, noise: number) => {
    const block = [...Array(16).keys()]
    const base = block.map(() => 0.4)
    return { base, head: block.map((b) => 0.4 * (1 + change) * (1 + noise * (b % 2 === 0 ? 1 : -1))), block, pairs: 1 }
  }
  const settings = { ...DEFAULT_COMPARE, tolerance: 0.01 }

  it('stops at half the tolerance once the verdict is decided', () => {
    // Half-width 0.43% with the change at 0 or at 3%: unchanged, regression.
    expect(blocksState(rounds(0, 0.008), settings)).toMatchObject({ verdict: 'unchanged' })
    expect(decidedEnough(rounds(0, 0.008), settings)).toBe(true)
    expect(blocksState(rounds(0.03, 0.008), settings)).toMatchObject({ verdict: 'regression' })
    expect(decidedEnough(rounds(0.03, 0.008), settings)).toBe(true)
  })

  it('goes on while a change near the tolerance is inconclusive, down to a quarter of the tolerance', () => {
    const near = rounds(0.0125, 0.008)
    expect(blocksState(near, settings)!.blocksHalfWidth).toBeLessThan(settings.tolerance / 2)
    expect(blocksState(near, settings)).toMatchObject({ verdict: 'inconclusive' })
    expect(decidedEnough(near, settings)).toBe(false)
    // Half-width 0.21%: the rule stops whatever the verdict.
    expect(blocksState(rounds(0.01, 0.004), settings)!.blocksHalfWidth).toBeLessThan(settings.tolerance / 4)
    expect(decidedEnough(rounds(0.01, 0.004), settings)).toBe(true)
  })

  it('stops a kernel under 20 µs at half the tolerance whatever the verdict', () => {
    const near = rounds(0.0125, 0.008)
    const small = { ...near, base: near.base.map((ms) => (ms / 0.4) * 0.0199), head: near.head.map((ms) => (ms / 0.4) * 0.0199) }
    expect(blocksState(small, settings)).toMatchObject({ verdict: 'inconclusive' })
    expect(decidedEnough(small, settings)).toBe(true)
    const wide = rounds(0.0125, 0.012)
    expect(decidedEnough({ ...wide, base: wide.base.map((ms) => (ms / 0.4) * 0.0199), head: wide.head.map((ms) => (ms / 0.4) * 0.0199) }, settings)).toBe(false)
  })

  it('does not stop on blocks wider than half the tolerance, nor on fewer than the least blocks', () => {
    expect(decidedEnough(rounds(0.05, 0.012), settings)).toBe(false)
    const few = rounds(0, 0.001)
    expect(decidedEnough({ ...few, base: few.base.slice(0, MIN_PAIRED_BLOCKS - 1), head: few.head.slice(0, MIN_PAIRED_BLOCKS - 1), block: few.block.slice(0, MIN_PAIRED_BLOCKS - 1) }, settings)).toBe(false)
  })
})

describe('compareBlocks', () => {
  it("reads the change off the blocks' median ratios, with Student's t interval over the blocks", () => {
    // Four blocks of two rounds; the candidate is 2% slower in every round apart from a block effect of ±1%.
    const effects = [0.01, -0.01, 0.005, -0.005]
    const block = [0, 0, 1, 1, 2, 2, 3, 3]
    const reference = block.map(() => 1)
    const candidate = block.map((b) => 1.02 * (1 + effects[b]!))
    const { interval, doubts } = compareBlocks(reference, candidate, block)
    expect(doubts).toEqual([])
    const logs = effects.map((e) => Math.log(1.02 * (1 + e)))
    const mean = logs.reduce((s, x) => s + x, 0) / 4
    const sd = Math.sqrt(logs.reduce((s, x) => s + (x - mean) ** 2, 0) / 3)
    expect(interval!.change).toBeCloseTo(Math.exp(-mean) - 1, 12)
    // t(0.975, 3) = 3.1824
    expect(interval!.high).toBeCloseTo(Math.exp(-mean + (3.1824 * sd) / 2) - 1, 5)
    expect(interval!.low).toBeLessThan(interval!.change)
  })

  it('gives no interval under three blocks, and refuses streams that do not line up', () => {
    expect(compareBlocks([1, 1], [1, 1], [0, 1]).doubts).toEqual(['too few blocks of rounds (2) for an interval of the change'])
    expect(() => compareBlocks([1], [1, 1], [0, 0])).toThrow(RangeError)
  })

  it('counts a block effect once per block, not once per round: two identical rounds in a block are one observation', () => {
    const block = Array.from({ length: 24 }, (_, i) => Math.floor(i / 2))
    const reference = block.map(() => 1)
    const candidate = block.map((b) => 1 + 0.015 * Math.sin(b * 1.7))
    const blocks = compareBlocks(reference, candidate, block).interval!
    // The same twelve blocks with one round each give the same interval.
    const once = compareBlocks(reference.slice(0, 12), candidate.filter((_, i) => i % 2 === 0), block.filter((_, i) => i % 2 === 0)).interval!
    expect(blocks).toEqual(once)
    expect(blocks.low).toBeLessThan(0)
    expect(blocks.high).toBeGreaterThan(0)
  })
})

describe('the process spread', () => {
  // Eight blocks of a 16 µs kernel whose candidate read 1.4% slower in every round: the blocks' own interval is tight.
  const block = Array.from({ length: 16 }, (_, i) => Math.floor(i / 2))
  const baseMs = block.map((b) => 0.016 * (1 + 0.001 * Math.sin(b)))
  const headMs = baseMs.map((ms, i) => ms * 1.014 * (1 + 0.0005 * Math.cos(i)))
  const rounds = { base: baseMs, head: headMs, block, calls: 4, dropped: 0 }
  const paired = { base: { outcome: { status: 'ok' as const, outputs: [], verificationSkipped: false } }, rounds }

  it('is the option over the square root of the base side\'s median round in µs', () => {
    expect(processSpreadAt(0.013, [0.016, 0.016, 0.016])).toBeCloseTo(0.013 / 4, 12)
    expect(processSpreadAt(0.013, [1])).toBeCloseTo(0.013 / Math.sqrt(1000), 12)
    expect(processSpreadAt(0, [0.016])).toBe(0)
  })

  it('is added to the blocks\' interval in quadrature: what two processes differ by keeps a small change from being called one', () => {
    const tight = compareBlocks(baseMs, headMs, block).interval!
    const sd = 0.013 / 4
    const widened = compareBlocks(baseMs, headMs, block, 0.95, sd).interval!
    const halfWidth = (x: typeof tight) => (Math.log(1 + x.high) - Math.log(1 + x.low)) / 2
    expect(widened.change).toBe(tight.change)
    expect(halfWidth(widened)).toBeCloseTo(Math.hypot(halfWidth(tight), 1.959964 * sd), 6)

    // A result written before the process spread existed has none, and none is added.
    const without = pairedVerdict(paired, { ...compare, tolerance: 0.01 })
    expect(without.kind).toBe('regression')
    const withSpread = pairedVerdict(paired, { ...compare, tolerance: 0.01, processSpread: 0.013 })
    expect(withSpread.kind).toBe('inconclusive')
    expect(withSpread.message).toContain('process spread 0.3%')
  })
})

/** The rounds of one pair of `rounds`, as compareBlocks' first three arguments. */
function pickPair(rounds: { base: number[]; head: number[]; block: number[]; pairs: number }, pair: number): [number[], number[], number[]] {
  const { base, head, block } = roundsOfPair(rounds, rounds.pairs, pair)
  return [base, head, block]
}

describe('the fresh processes', () => {
  // A 3.7 µs kernel (process spread 0.68%) on three pairs of six blocks each: the first two read the head `first`
  // slower, the fresh pair (the third) `fresh`, each block within ±0.2%.
  const rounds = (first: number, fresh: number) => {
    const block = [...Array(18).keys()]
    const base = block.map(() => 0.0037)
    const head = block.map((b) => 0.0037 * (1 + (b % 3 === 2 ? fresh : first)) * (1 + 0.002 * Math.sin(b)))
    return { base, head, block, pairs: 3, freshPair: 2, calls: 64, dropped: 0 }
  }
  const settings = { tolerance: 0.01, confidence: 0.95, processSpread: DEFAULT_COMPARE.processSpread }

  it('confirm a change they read the same way, clear of zero', () => {
    const judged = judgePairedRounds(rounds(0.047, 0.02), settings)
    expect(judged.judged.kind).toBe('regression')
    expect(judged.fresh!.interval!.high).toBeLessThan(-0.01)
  })

  it('overturn a change that the pooled pairs still read, when they read no change or the other way', () => {
    const unconfirmed = { ...rounds(0.047, 0), freshPair: undefined }
    // Pooled, the fresh pair's disagreement only widens the interval: the three pairs still read a regression.
    expect(judgePairedRounds(unconfirmed, settings).judged.kind).toBe('regression')
    const judged = judgePairedRounds(rounds(0.047, 0), settings)
    expect(judged.judged.kind).toBe('inconclusive')
    expect(judged.judged.reason).toMatch(/^the whole interval is slower than the tolerance 1(\.0)?%, but the change did not repeat on fresh processes \(they read [+-]0\.\d+% \[/)
    expect(judgePairedRounds(rounds(0.047, -0.01), settings).judged.kind).toBe('inconclusive')
    const message = pairedVerdict({ base: { outcome: { status: 'ok', outputs: [] } as never }, rounds: rounds(0.047, 0) }, { ...compare, processSpread: settings.processSpread }).message
    expect(message).toMatch(/^inconclusive against .*did not repeat on fresh processes.*3 pairs of processes \(one opened fresh to confirm the change\)/)
  })

  it('confirm with the spread of every pair\'s blocks where one odd block widens their own, and with their own where the other pairs\' blocks spread widely', () => {
    // Four blocks a pair, the head 5% slower; the fresh pair's third block reads 20% slower.
    const block = [...Array(12).keys()]
    const base = block.map(() => 0.036)
    const odd = block.map((b) => 0.036 * (b === 8 ? 1.2 : 1.05) * (1 + 0.002 * Math.sin(b)))
    const oddRounds = { base, head: odd, block, pairs: 3, freshPair: 2 }
    const oddJudged = judgePairedRounds(oddRounds, settings)
    expect(compareBlocks(...pickPair(oddRounds, 2), 0.95).interval!.high).toBeGreaterThan(0)
    expect(oddJudged.judged.kind).toBe('regression')
    expect(oddJudged.fresh!.interval!.high).toBeLessThan(0)
    // The first two pairs' blocks read 5% or 25% slower by turns, the fresh pair's 8% in each.
    const jumpy = block.map((b) => 0.036 * (b % 3 === 2 ? 1.08 : b % 2 === 0 ? 1.25 : 1.05) * (1 + 0.002 * Math.sin(b)))
    const jumpyRounds = { base, head: jumpy, block, pairs: 3, freshPair: 2 }
    expect(onePairChange(base, jumpy, block, 3, 2).interval!.high).toBeGreaterThan(0)
    expect(judgePairedRounds({ ...jumpyRounds, freshPair: undefined }, settings).judged.kind).toBe('regression')
    expect(judgePairedRounds(jumpyRounds, settings).judged.kind).toBe('regression')
  })

  it('go on past their count while one odd block leaves the case too wide to judge, and stop once they confirm or the case is decided', () => {
    // The 2^29-element add made 5% slower (H100, 2026-11-28): six blocks on two pairs, then three on the fresh pair,
    // whose second had the base at the upper of the kernel's two levels and the head at the lower.
    const measured: PairedRounds = {
      base: [2.093, 2.094, 2.094, 2.407, 2.097, 2.362, 2.092, 2.359, 2.092],
      head: [2.194, 2.197, 2.213, 2.528, 2.21, 2.499, 2.196, 2.211, 2.195],
      block: [0, 1, 3, 4, 6, 7, 2, 5, 8],
      calls: 1,
      perSide: 1,
      dropped: 0,
      pairs: 3,
      freshPair: 2,
    }
    const compareSettings = { ...DEFAULT_COMPARE, tolerance: 0.01 }
    expect(judgePairedRounds(measured, compareSettings).judged.reason).toMatch(/^the interval is too wide to judge/)
    expect(freshPairDone(measured, 3, 3, compareSettings)).toBe(false)
    // Had its second block read as the others did, three blocks would have confirmed it.
    const even = { ...measured, base: measured.base.map((ms, i) => (i === 7 ? 2.092 : ms)) }
    expect(freshPairDone(even, 3, 3, compareSettings)).toBe(true)
    expect(freshPairDone(even, 2, 3, compareSettings)).toBe(false)
    // Identical code whose first two pairs read 4.7% slower and whose fresh pair reads nothing, every block within
    // ±0.2%: the case is decided (inconclusive, the change not repeated), and more fresh blocks would not change that.
    const unrepeated = { ...rounds(0.047, 0), perSide: 1 as const }
    expect(judgePairedRounds(unrepeated, settings).judged.kind).toBe('inconclusive')
    expect(freshPairDone(unrepeated, 6, 6, compareSettings)).toBe(true)
    expect(freshPairDone(unrepeated, 5, 6, compareSettings)).toBe(false)
  })

  it('are asked nothing where the pairs read no change', () => {
    expect(judgePairedRounds(rounds(0.001, 0.005), settings)).toMatchObject({ judged: { kind: 'unchanged' } })
    expect(judgePairedRounds(rounds(0.001, 0.005), settings).fresh).toBeUndefined()
  })
})

describe('confirmingBlocks', () => {
  it('numbers the blocks as those of one pair more, the fresh pair last, and asks for as many blocks as a pair ran', () => {
    const fresh = confirmingBlocks([0, 1, 2, 3, 4, 5, 6], 2)
    expect(fresh.renumbered).toEqual([0, 1, 3, 4, 6, 7, 9])
    expect(fresh.renumbered.map((b) => b % 3)).toEqual([0, 1, 0, 1, 0, 1, 0])
    expect([0, 1, 2].map(fresh.label)).toEqual([2, 5, 8])
    expect(fresh.count).toBe(4)
    expect(confirmingBlocks([0, 1, 2, 3], 2).count).toBe(MIN_INTERVAL_BLOCKS)
    expect(confirmingBlocks([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 1)).toMatchObject({ renumbered: [0, 2, 4, 6, 8, 10, 12, 14, 16, 18], count: 10 })
  })
})

describe('pairs of processes', () => {
  // Twelve blocks on two pairs: the blocks of one pair agree within 0.1%, but pair 0 reads the candidate 1.5% slower
  // and pair 1 0.5% faster, as two processes of the same code can for their whole life.
  const block = Array.from({ length: 24 }, (_, i) => Math.floor(i / 2))
  const reference = block.map(() => 1)
  const offsets = [1.015, 0.995]
  const candidate = block.map((b, i) => offsets[b % 2]! * (1 + 0.001 * Math.sin(i)))

  it('takes the blocks\' spread within each pair, and pools the pairs\' own spread beyond it with the process spread', () => {
    const one = compareBlocks(reference, candidate, block)
    const two = compareBlocks(reference, candidate, block, 0.95, 0.001, 2)
    // As one pair, the alternating offsets are block noise; as two, they are what the pairs differ by.
    expect(two.blocksHalfWidth!).toBeLessThan(one.blocksHalfWidth! / 5)
    expect(two.pairSpread!).toBeCloseTo(Math.abs(Math.log(1.015) - Math.log(0.995)) / Math.SQRT2, 3)
    // The process spread counts as PROCESS_SPREAD_WEIGHT pairs, the case's own two pairs as one degree of freedom.
    const pooled = (PROCESS_SPREAD_WEIGHT * 0.001 ** 2 + two.pairSpread! ** 2) / (PROCESS_SPREAD_WEIGHT + 1)
    const halfWidth = (Math.log(1 + two.interval!.high) - Math.log(1 + two.interval!.low)) / 2
    expect(halfWidth).toBeCloseTo(Math.hypot(two.blocksHalfWidth!, 1.959964 * Math.sqrt(pooled / 2)), 6)
    expect(judgeChange(two, 0.01).kind).toBe('inconclusive')
    // The change is the mean of the pairs' own.
    expect(two.interval!.change).toBeCloseTo(1 / Math.sqrt(1.015 * 0.995) - 1, 3)
    // With no process spread given, the pairs' own spread stands alone.
    const alone = compareBlocks(reference, candidate, block, 0.95, 0, 2)
    const aloneHalfWidth = (Math.log(1 + alone.interval!.high) - Math.log(1 + alone.interval!.low)) / 2
    expect(aloneHalfWidth).toBeCloseTo(Math.hypot(alone.blocksHalfWidth!, (1.959964 * alone.pairSpread!) / Math.SQRT2), 6)
  })

  it('averages the process spread over the pairs where the pairs agree', () => {
    const agreeing = block.map((_, i) => 1.02 * (1 + 0.001 * Math.sin(i)))
    const two = compareBlocks(reference, agreeing, block, 0.95, 0.004, 2)
    expect(two.pairSpread!).toBeLessThan(0.001)
    const pooled = (PROCESS_SPREAD_WEIGHT * 0.004 ** 2 + two.pairSpread! ** 2) / (PROCESS_SPREAD_WEIGHT + 1)
    const halfWidth = (Math.log(1 + two.interval!.high) - Math.log(1 + two.interval!.low)) / 2
    expect(halfWidth).toBeCloseTo(Math.hypot(two.blocksHalfWidth!, 1.959964 * Math.sqrt(pooled / 2)), 6)
    expect(Math.sqrt(pooled / 2)).toBeLessThan(0.004 / Math.SQRT2)
    expect(judgeChange(two, 0.01).kind).toBe('regression')
  })

  it('gives no interval without two blocks on some pair, and says the pairs read apart in the verdict', () => {
    expect(compareBlocks([1, 1, 1], [1, 1, 1], [0, 1, 2], 0.95, 0, 3).doubts[0]).toMatch(/on 3 pairs of processes/)
    const verdict = pairedVerdict(
      { base: { outcome: { status: 'ok', outputs: [], verificationSkipped: false } }, rounds: { base: reference, head: candidate, block, calls: 1, dropped: 0, pairs: 2 } },
      { ...compare, processSpread: 0.001 },
    )
    expect(verdict.kind).toBe('inconclusive')
    expect(verdict.message).toMatch(/2 pairs of processes, read 1\.4% apart \(pooled with the process spread\)/)
  })
})

describe('blockOrder', () => {
  it("alternates which side moves and runs first within each pair's blocks", () => {
    expect([0, 1, 2, 3].map((b) => blockOrder(b, 1)[0])).toEqual(['base', 'head', 'base', 'head'])
    // On two pairs, blocks 0 and 1 are each pair's first, 2 and 3 each pair's second.
    expect([0, 1, 2, 3, 4, 5].map((b) => blockOrder(b, 2)[0])).toEqual(['base', 'base', 'head', 'head', 'base', 'base'])
    expect(blockOrder(3, 2)).toEqual(['head', 'base'])
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

describe('sideBySide', () => {
  it('counts host starts that ran at once by their wall time, the longest wait for the lock apart', () => {
    const starts = [
      { hostStart: 400, gpuWait: 30 },
      { hostStart: 420, gpuWait: 120 },
      { hostStart: 390 },
    ]
    expect(sideBySide(starts, 600)).toEqual({ hostStart: 480, gpuWait: 120 })
    // A wait as long as the whole start is all waiting.
    expect(sideBySide([{ hostStart: 0, gpuWait: 900 }], 500)).toEqual({ hostStart: 0, gpuWait: 500 })
    expect(sideBySide([], 2)).toEqual({ hostStart: 2, gpuWait: 0 })
  })
})

describe('roundsPerSide', () => {
  const sizing = (...ms: number[][]) => ms.map((samplesMs) => ({ samplesMs, smClockMHz: NaN, interference: 0, wallMs: 1 }))
  it('gives one round a side from 50 µs on both sides, two below or when a sizing round kept no sample', () => {
    expect(roundsPerSide(sizing([0.05], [0.2]))).toBe(1)
    expect(roundsPerSide(sizing([0.049], [0.2]))).toBe(2)
    expect(roundsPerSide(sizing([0.2], [0.049]))).toBe(2)
    expect(roundsPerSide(sizing([], [0.2]))).toBe(2)
  })
})

describe('underOneLock', () => {
  it('adds up the work of requests that ran at once on one GPU, and counts their waits only where no work ran', () => {
    const ends = [
      { verify: 40, timing: 5, gpuWait: 0 },
      { verify: 40, timing: 5, gpuWait: 45 },
      { verify: 40, timing: 5, gpuWait: 90 },
    ]
    // 135 ms of work in 150 ms: of the longest wait (90 ms, behind the other two), 15 ms had no work beside it.
    expect(underOneLock(ends, 150)).toEqual({ verify: 120, timing: 15, gpuWait: 15 })
    expect(underOneLock(ends, 135)).toEqual({ verify: 120, timing: 15 })
    expect(underOneLock([], 3)).toEqual({})
  })
})

describe('the paired verdict on a kernel whose time jumps between two levels', () => {
  // 24 blocks of one round a side of a 4.19 ms add that reads 4.77 ms in some of its rounds, on either side and at
  // random (as the 2^29- and 2^30-element adds did on H100s): the blocks' ratios spread by the whole gap.
  const block = [...Array(24).keys()]
  const jitter = (b: number) => 1 + 0.001 * (((b * 5) % 7) - 3)
  /** `upper(b, side)`: whether that round is at the upper level; the head `slower` at both levels. */
  const rounds = (upper: (b: number, side: number) => boolean, slower = 0) => {
    const time = (b: number, side: number) => (upper(b, side) ? 4.77 : 4.19) * jitter(b + side) * (side === 1 ? 1 + slower : 1)
    return { base: block.map((b) => time(b, 0)), head: block.map((b) => time(b, 1)), block, calls: 1, dropped: 0, pairs: 1 }
  }
  const aThird = (b: number, side: number) => ((b * 7 + side * 3) % 11) % 3 === 0
  const judge = (r: ReturnType<typeof rounds>) =>
    pairedVerdict({ base: { outcome: { status: 'ok', outputs: [], verificationSkipped: false } }, rounds: r }, { ...compare, processSpread: 0.013 })

  it('fails a regression at the lower level, where the blocks are too wide, with each side\'s share of the upper', () => {
    const slower = judge(rounds(aThird, 0.02))
    expect(slower.kind).toBe('regression')
    expect(slower.fails).toBe(true)
    expect(slower.change!).toBeCloseTo(1 / 1.02 - 1, 3)
    expect(slower.reason).toMatch(
      /^the lower level's interval is slower than the tolerance 1\.0%: its rounds fall on two levels, 4\.\d{3} ms and 4\.\d{3} ms \(upper: base \d+%, head \d+% of rounds\)$/,
    )
    expect(slower.message).toContain("interval of the two sides' medians at the lower level, from 24 blocks")
  })

  it('does not call it unchanged at the lower level: how often each side is at the upper level moves the whole', () => {
    const same = judge(rounds(aThird))
    expect(same.kind).toBe('inconclusive')
    expect(same.reason).toMatch(/^the interval is too wide to judge .*; its rounds fall on two levels, .*, the lower level reads [+-]0\.0\d*% \[.*\], and only a regression is judged there$/)
    // A quarter of the head's rounds more at the upper level (3.5% slower on the whole), too few rounds to tell apart.
    expect(judge(rounds((b, side) => (side === 0 ? b % 4 === 0 : b % 2 === 1))).kind).toBe('inconclusive')
  })

  it('does not fail a lower level that is slower where the head is less often at the upper level', () => {
    const verdict = judge(rounds((b, side) => (side === 1 ? b % 5 === 0 : b % 2 === 0), 0.02))
    expect(verdict.kind).toBe('inconclusive')
    expect(verdict.reason).toMatch(/upper: base 50%, head 21% of rounds\), the lower level reads -2\.0% \[/)
  })

  it('stays inconclusive, saying why, with too few rounds at the lower level', () => {
    // Five rounds a side at the lower level: a fifth of all, enough for two levels, too few for a side's interval.
    const verdict = judge(rounds((b, side) => (side === 0 ? b >= 5 : b < 5 || b >= 10)))
    expect(verdict.kind).toBe('inconclusive')
    expect(verdict.reason).toMatch(
      /^the interval is too wide to judge .*; its rounds fall on two levels, .*, too few rounds at the lower level \(base 5, head 5\) for a 95% interval, and only a regression is judged there$/,
    )
  })

  it('says the lower level has too few rounds, and does not throw, where one side has none there', () => {
    // Every base round at 4.19 ms, every head round at the upper level: the head 15% slower, its rounds a level up.
    const verdict = judge(rounds((_, side) => side === 1))
    expect(verdict.kind).not.toBe('unchanged')
    const level = lowerLevelChange({ base: rounds(() => false).base, head: rounds(() => true).head }, 0.95, 0, { lower: 4.19, upper: 4.77 })
    expect(level?.estimate.doubts[0]).toMatch(/^too few rounds at the lower level \(base 24, head 0\)/)
  })

  it('leaves a decided verdict as it is, and levels a few percent apart to the blocks', () => {
    const near = judge({ ...rounds(aThird), head: rounds(aThird).base.map((ms) => ms * 1.001) })
    expect(near.kind).toBe('unchanged')
    expect(near.reason).not.toContain('level')
    expect(lowerLevelChange({ base: [...Array(30)].map((_, i) => (i % 3 === 0 ? 1.04 : 1) * jitter(i)), head: [...Array(30)].map((_, i) => (i % 3 === 1 ? 1.04 : 1) * jitter(i + 1)) }, 0.95, 0)).toBeUndefined()
  })
})
