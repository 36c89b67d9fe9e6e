// Paired rounds that something outside the case slowed (docs/ci-gate.md, "Paired A/B"). In runs of the example suite
// against itself on H100s (2026-11-27), one side's rounds now and then read about 40 µs slower a call for a second or
// two (a 19 µs kernel read 62 µs) while the other side's rounds between them read as usual, so the ratios did not
// cancel it and identical code was judged 21% slower. A round far above its side's usual round is disturbed and its
// block is left out of the interval; when many blocks are, every block is judged and the verdict says so
// (src/shared/paired-estimate.ts): a side slow that often may be the code itself.
import { quantile } from './stats.js'

/**
 * A round this many times its side's lower quartile is disturbed: where the buffers sit moves a kernel by a few
 * percent, a throttled clock is dropped before, and the disturbances seen added 100% to 1000%.
 */
export const DISTURBED_FACTOR = 1.25
/** Above this share of blocks left out, every block is judged instead: a side slow that often may be the code itself. */
export const MAX_DISTURBED_SHARE = 0.1

interface Rounds {
  base: readonly number[]
  head: readonly number[]
  block: readonly number[]
}

export interface DisturbedRounds {
  /** The rounds of the blocks where no round was disturbed. */
  clean: { base: number[]; head: number[]; block: number[] }
  blocks: number
  /** Blocks left out: one of their rounds, on either side, was disturbed. */
  leftOut: number
  /** Disturbed rounds on each side. */
  disturbed: { base: number; head: number }
  /** The slowest disturbed round, as a multiple of its side's lower quartile (1 when none). */
  worst: number
}

/** Splits paired rounds into the blocks to judge and those a disturbance touched. */
export function leaveOutDisturbed(rounds: Rounds): DisturbedRounds {
  const usual = (times: readonly number[]) => (times.length > 0 ? quantile([...times].sort((a, b) => a - b), 0.25) : NaN)
  const limits = { base: usual(rounds.base), head: usual(rounds.head) }
  const disturbed = { base: 0, head: 0 }
  const touched = new Set<number>()
  let worst = 1
  rounds.block.forEach((block, i) => {
    for (const side of ['base', 'head'] as const) {
      const factor = rounds[side][i]! / limits[side]
      if (!(factor > DISTURBED_FACTOR)) continue
      disturbed[side]++
      touched.add(block)
      worst = Math.max(worst, factor)
    }
  })
  const clean = { base: [] as number[], head: [] as number[], block: [] as number[] }
  rounds.block.forEach((block, i) => {
    if (touched.has(block)) return
    clean.base.push(rounds.base[i]!)
    clean.head.push(rounds.head[i]!)
    clean.block.push(block)
  })
  return { clean, blocks: new Set(rounds.block).size, leftOut: touched.size, disturbed, worst }
}

/** Whether too many blocks were left out to judge the rest. */
export function tooDisturbed(split: DisturbedRounds): boolean {
  return split.leftOut > MAX_DISTURBED_SHARE * split.blocks
}

/**
 * The rounds a paired case is judged on: its undisturbed blocks', or every block's where too many were disturbed.
 * Leaving out more than a few blocks could leave out the change itself (a side slow in a third of its rounds is slow);
 * what keeps one disturbed process from failing the case then is the confirmation on fresh processes
 * (src/shared/paired-estimate.ts).
 */
export function roundsToJudge(rounds: Rounds): { split: DisturbedRounds; judged: DisturbedRounds['clean'] } {
  const split = leaveOutDisturbed(rounds)
  const judged = tooDisturbed(split) ? { base: [...rounds.base], head: [...rounds.head], block: [...rounds.block] } : split.clean
  return { split, judged }
}

/** What a case with too many disturbed blocks read, in words, for the reason of its verdict. */
export function disturbedReason(split: DisturbedRounds): string {
  const sides = (['base', 'head'] as const).filter((side) => split.disturbed[side] > 0)
  const whose = sides.length === 2 ? "both sides'" : `the ${sides[0]} side's`
  return (
    `${whose} rounds read up to ${split.worst.toFixed(1)}× their usual time in ${split.leftOut} of ${split.blocks} blocks ` +
    `(over ${Math.round(MAX_DISTURBED_SHARE * 100)}%), so every block was judged: a kernel that is slow at times, or other work on the GPU`
  )
}
